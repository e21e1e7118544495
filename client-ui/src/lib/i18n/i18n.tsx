import { type ReactNode, useCallback } from 'react';
import {
  fillPlaceholders,
  formatClientErrorMessage,
  LANGUAGE_LOCALES,
  clientMessageForApiError,
  type ErrorCode,
  type Language,
  type MessageParams,
  type RuleIssue,
} from '@kupa/proto';
import { currentLang, useLangStore } from '../stores/lang-store';
import { isolated, richText } from './rich-text';
import { he, type MessageKey } from './he';

export type { MessageKey };

type Dictionary = Readonly<Record<MessageKey, string>>;

/**
 * The dictionaries loaded so far. Hebrew, the default language and the source of the keys, ships with the first screen;
 * English is its own chunk, loaded before the first render when it is the stored language and before a switch to it
 * (docs/adr/0048-first-screen-in-one-chunk.md), so a Hebrew visitor never downloads it.
 */
const loaded: Partial<Record<Language, Dictionary>> = { he };
const loaders: Readonly<Record<Language, () => Promise<Dictionary>>> = {
  he: () => Promise.resolve(he),
  en: () => import('./en').then((module) => module?.en),
};

export function isLanguageLoaded(lang: Language): boolean {
  return loaded[lang] !== undefined;
}

/** Loads a language's dictionary (once); `translate` may be called for it when this resolves. */
export async function loadLanguage(lang: Language): Promise<void> {
  if (loaded[lang]) return;
  const found = await loaders[lang]();
  // No module and no error: the chunk failed and main.tsx's vite:preloadError handler is reloading the page, which
  // starts over in the stored language; nothing should render or switch meanwhile.
  if (!found) return new Promise<never>(() => undefined);
  loaded[lang] = found;
}

function dictionary(lang: Language): Dictionary {
  const found = loaded[lang];
  if (found) return found;
  // Unreachable when the start-up and the switcher await loadLanguage. Never fall back to Hebrew words on an
  // English page: development and tests fail loudly, production shows the keys and says why in the console.
  if (import.meta.env.DEV || import.meta.env.MODE === 'test') {
    throw new Error(`The ${lang} dictionary was used before loadLanguage('${lang}') resolved`);
  }
  console.error(`The ${lang} dictionary was used before it loaded`);
  return keysAsTexts;
}
const keysAsTexts = new Proxy({} as Dictionary, { get: (_target, key) => String(key) });

/** The BCP 47 locale used for numbers and dates in each language (proto's, shared with the staff console). */
export const LOCALES = LANGUAGE_LOCALES;

export function translate(lang: Language, key: MessageKey, params: MessageParams = {}): string {
  return fillPlaceholders(dictionary(lang)[key], params);
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** The translation function of the current language, plus helpers for catalogue messages. */
export function useT() {
  const lang = useLangStore((state) => state.lang);
  const t = useCallback<Translate>((key, params) => translate(lang, key, params), [lang]);
  const issueMessage = useCallback(
    (issue: RuleIssue | null | undefined) =>
      issue ? formatClientErrorMessage(issue.error, lang, issue.params) : undefined,
    [lang],
  );
  const errorMessage = useCallback((code: ErrorCode) => formatClientErrorMessage(code, lang), [lang]);
  const apiErrorMessage = useCallback((body: unknown) => clientMessageForApiError(body, lang), [lang]);
  // Like t, but every parameter is an LTR-isolated node: for sentences that embed e-mails, amounts or IDs.
  const tIsolated = useCallback(
    (key: MessageKey, params: Readonly<Record<string, string | number>>) =>
      richText(dictionary(lang)[key], isolated(params)),
    [lang],
  );
  // Like tIsolated, for parameters that need more than a plain `<bdi>` (an explicit direction, a test id).
  const tRich = useCallback(
    (key: MessageKey, params: Readonly<Record<string, ReactNode>>) => richText(dictionary(lang)[key], params),
    [lang],
  );
  return { t, tIsolated, tRich, lang, locale: LOCALES[lang], issueMessage, errorMessage, apiErrorMessage };
}

/** Sets `lang` and `dir` on `<html>`, which MUI dialogs and menus outside the app root also inherit. */
export function applyDocumentLanguage(lang: Language = currentLang()): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'he' ? 'rtl' : 'ltr';
  document.title = translate(lang, 'app.name');
}
