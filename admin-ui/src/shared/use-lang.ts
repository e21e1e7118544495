import { isOneOf, LANGUAGES, type Language } from '@kupa/proto';
import { useLocaleState } from 'react-admin';
import { currentLang } from '../i18n/language';

/** The page language as a proto `Language`, for the catalogue and label helpers that live in proto. */
export function useLang(): Language {
  const [locale] = useLocaleState();
  return isOneOf(LANGUAGES, locale) ? locale : currentLang();
}
