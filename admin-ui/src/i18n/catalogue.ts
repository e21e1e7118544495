import { type Language } from '@kupa/proto';
import { type Messages } from './text';

/**
 * Loads one language's catalogue on its own: the page language is fixed until a switch reloads it, so the other
 * language never needs to travel (docs/adr/0044-console-signs-in-before-loading-react-admin.md).
 */
export async function loadCatalogue(lang: Language): Promise<Messages> {
  return lang === 'en' ? (await import('./en')).en : (await import('./he')).he;
}
