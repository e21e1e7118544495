import type { Bilingual } from './bilingual';
import { LANGUAGE_LOCALES, type Language } from './enums';
import { LIMITS } from './limits';

/**
 * The payments keyword rule (ADR 0115), shared by the API that enforces it and the console that says it. Over every
 * client's payments a keyword has at least `LIMITS.keywordMinLength` characters once trimmed, or is a shorter run of
 * digits, which is that payment number; without dates it looks at the latest `LIMITS.keywordSearchRecentPayments`
 * payments. One client's rows take any keyword and are not bounded.
 */

/** A keyword shorter than the trigram index serves, made of digits: one payment number, found by its key. */
export function isPaymentNumberKeyword(keyword: string): boolean {
  const trimmed = keyword.trim();
  return /^\d+$/.test(trimmed) && [...trimmed].length < LIMITS.keywordMinLength;
}

/** The refusal of a keyword too short to search every client's payments with, or null when it is fine or blank. */
export function paymentKeywordTooShort(keyword: string): { min: number } | null {
  const trimmed = keyword.trim();
  if (trimmed === '' || [...trimmed].length >= LIMITS.keywordMinLength || isPaymentNumberKeyword(trimmed)) return null;
  return { min: LIMITS.keywordMinLength };
}

/** Whether a keyword over every client's payments looks at the latest ones only: no date is picked. */
export function isPaymentKeywordBounded(keyword: string, dateFrom: unknown, dateTo: unknown): boolean {
  if (keyword.trim() === '' || dateFrom || dateTo) return false;
  return !isPaymentNumberKeyword(keyword);
}

const KEYWORD_BOUND_TEXT: Bilingual = Object.freeze({
  en: 'Without dates, the search looks at the latest {count} payments',
  he: 'בלי תאריכים, החיפוש בודק את {count} התשלומים האחרונים',
});

/** What the console says under the keyword while the bound applies. */
export function paymentKeywordBoundText(language: Language): string {
  const count = LIMITS.keywordSearchRecentPayments.toLocaleString(LANGUAGE_LOCALES[language]);
  return KEYWORD_BOUND_TEXT[language].replace('{count}', count);
}
