import { LOCALES } from './i18n/i18n';
import type { Language } from '@kupa/proto';

/** Formats a dollar amount (the API sends dollars with at most two decimals) for the given language. */
export function formatDollars(amount: number, lang: Language): string {
  return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency: 'USD' }).format(amount);
}

/** Like `formatDollars`, with an explicit sign: `+$5.00` for money in, `-$5.00` for money out. */
export function formatSignedDollars(amount: number, lang: Language): string {
  return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency: 'USD', signDisplay: 'exceptZero' }).format(
    amount,
  );
}

export function formatDate(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium' }).format(date);
}

export function formatDateTime(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
