import { type Language } from '@kupa/proto';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { type TranslationMessages } from 'react-admin';
import { en } from './en';
import { he } from './he';
import { currentLang } from './language';

export const CATALOGUES: Readonly<Record<Language, TranslationMessages>> = { he, en };

/** Shown by any locale menu; each name is written in its own language so a reader always finds theirs. */
export const LOCALES = [
  { locale: 'he', name: 'עברית' },
  { locale: 'en', name: 'English' },
];

/**
 * Locales go in the third argument and polyglot options in the fourth: options passed third would be taken for the
 * locale list and lost on a locale change. A missing key falls back to the key itself instead of warning, because
 * react-admin asks for optional keys (such as a field label) and falls back on its own.
 */
export function createI18nProvider(initial: Language = currentLang()) {
  return polyglotI18nProvider((locale) => CATALOGUES[locale as Language] ?? CATALOGUES.he, initial, LOCALES, {
    allowMissing: true,
  });
}
