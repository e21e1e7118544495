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
import { en } from './en';
import { isolated, richText } from './rich-text';
import { he, type MessageKey } from './he';

export type { MessageKey };

export const DICTIONARIES: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = { he, en };

/** The BCP 47 locale used for numbers and dates in each language (proto's, shared with the staff console). */
export const LOCALES = LANGUAGE_LOCALES;

export function translate(lang: Language, key: MessageKey, params: MessageParams = {}): string {
  return fillPlaceholders(DICTIONARIES[lang][key], params);
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
      richText(DICTIONARIES[lang][key], isolated(params)),
    [lang],
  );
  // Like tIsolated, for parameters that need more than a plain `<bdi>` (an explicit direction, a test id).
  const tRich = useCallback(
    (key: MessageKey, params: Readonly<Record<string, ReactNode>>) => richText(DICTIONARIES[lang][key], params),
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
