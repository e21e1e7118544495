import { LOCALES } from './i18n/i18n';
import {
  formatDollarsForIsolate,
  formatSignedDollarsForIsolate,
  keptOnOneLine,
  type Language,
  prepareDollarFormats,
} from '@kupa/proto';

/**
 * Building an `Intl` formatter loads locale data and costs far more than formatting one value; a list of payments
 * formats a date and an amount per row on every render. Each formatter is built once per language and kept.
 */
function memoisedByLanguage<T>(build: (locale: string) => T): (lang: Language) => T {
  const built = new Map<Language, T>();
  return (lang) => {
    let formatter = built.get(lang);
    if (formatter === undefined) {
      formatter = build(LOCALES[lang]);
      built.set(lang, formatter);
    }
    return formatter;
  };
}

const dates = memoisedByLanguage((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }));
const dateTimes = memoisedByLanguage(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
);
const times = memoisedByLanguage((locale) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }));
const wholeNumbers = memoisedByLanguage((locale) => new Intl.NumberFormat(locale));
const percents = memoisedByLanguage(
  (locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
);

/**
 * Builds, each in a task of its own, the formatters the signed-in screens use at once (the balance, the payments'
 * amounts and times), while the page still waits for its data. A page's first `Intl` formatter loads the locale's
 * data: about 12 ms on a desktop core, four times that on a mid-range phone. Left to the render that first needs it,
 * that time joins one long task that keeps the page from answering input (docs/adr/0054-formatters-built-ahead.md).
 */
export function prepareFormatters(
  lang: Language,
  schedule: (task: () => void) => void = (task) => setTimeout(task, 0),
): void {
  schedule(() => prepareDollarFormats(lang));
  for (const build of [dateTimes, dates]) schedule(() => build(lang));
}

/**
 * A dollar amount (the API sends dollars with at most two decimals) in proto's one money format, which the staff
 * console shows too: for a left-to-right isolate, the sign where the language puts it (`1,234.50 $` in Hebrew).
 */
export const formatDollars = formatDollarsForIsolate;

/** Like `formatDollars`, with an explicit sign: `+$5.00` for money in, `-$5.00` for money out. */
export const formatSignedDollars = formatSignedDollarsForIsolate;

/** A count in the language's digits and grouping. */
export function formatNumber(value: number, lang: Language): string {
  return wholeNumbers(lang).format(value);
}

/** A percentage given in percent (`12.5` for 12.5 %), in the language's digits and percent sign. */
export function formatPercent(percent: number, lang: Language): string {
  return percents(lang).format(percent / 100);
}

/**
 * A day ("29 Dec 2026"), kept on one line: screens put dates inside sentences, which must wrap around a date, not
 * through it.
 */
export function formatDate(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return keptOnOneLine(dates(lang).format(date));
}

/** A day and time ("29 Dec 2026, 14:30"), kept on one line like `formatDate`. */
export function formatDateTime(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return keptOnOneLine(dateTimes(lang).format(date));
}

/** A time of day ("14:30"), for something that ends within the hour, such as a staff member's view of the portal. */
export function formatTime(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return keptOnOneLine(times(lang).format(date));
}
