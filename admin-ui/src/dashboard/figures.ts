import { LANGUAGE_LOCALES, type Language, withoutDirectionMarks } from '@kupa/proto';

/**
 * This month's change against last month, in percent of last month's figure. Null when last month has no figure to
 * compare with (zero) while this month has one: a percentage of nothing means nothing, so the screen says "new".
 */
export function percentChange(thisMonth: number, lastMonth: number): number | null {
  if (lastMonth === 0) return thisMonth === 0 ? 0 : null;
  return ((thisMonth - lastMonth) / Math.abs(lastMonth)) * 100;
}

/** A change in percent with its sign ("+12.5%", "-3%", "0%"), for a left-to-right isolate. */
export function formatPercentChange(change: number, lang: Language): string {
  const format = new Intl.NumberFormat(LANGUAGE_LOCALES[lang], {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  return withoutDirectionMarks(format.format(change / 100));
}

/** A count in the language's digits grouping. */
export function formatCount(count: number, lang: Language): string {
  return new Intl.NumberFormat(LANGUAGE_LOCALES[lang]).format(count);
}

/** A short dollar amount for a chart's axis ("$1.2K"), for left-to-right text. */
export function formatCompactDollars(amount: number, lang: Language): string {
  const format = new Intl.NumberFormat(LANGUAGE_LOCALES[lang], {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return withoutDirectionMarks(format.format(amount));
}

/** A chart day (`YYYY-MM-DD`, a UTC day) as the language writes a short date ("15 Mar", "15 במרץ"). */
export function formatChartDay(date: string, lang: Language, month: 'short' | 'long' = 'short'): string {
  const format = new Intl.DateTimeFormat(LANGUAGE_LOCALES[lang], { day: 'numeric', month, timeZone: 'UTC' });
  return withoutDirectionMarks(format.format(new Date(`${date}T00:00:00Z`)));
}

/**
 * Round axis bounds above the highest value and below the lowest (zero when nothing is negative): 1, 2, 2.5 or 5
 * times a power of ten, so the gridlines fall on numbers a reader can take in at a glance.
 */
export function niceBound(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}
