import { LANGUAGE_LOCALES, type Language } from './enums';
import { LIMITS } from './limits';

/**
 * Money crosses the API as a JSON number of dollars with at most two decimals; inside it is an integer count of
 * cents. These helpers are the only place the two meet.
 */
export type AmountCheck =
  | { ok: true; amountMinor: number }
  | {
      ok: false;
      error:
        | 'error.validation.must.be.positive'
        | 'error.validation.max.decimal.places'
        | 'error.validation.max'
        | 'error.validation.invalid.input';
    };

/**
 * `amount` in cents, or why it is refused. `allowZero` admits 0 (a filter's lower bound); `maxMinor` lowers the upper
 * bound below `LIMITS.amountMaxMinor` for amounts that have their own limit (a package's price).
 */
export function parseAmountToMinor(
  amount: unknown,
  options: { allowZero?: boolean; maxMinor?: number } = {},
): AmountCheck {
  if (typeof amount !== 'number' || !Number.isFinite(amount))
    return { ok: false, error: 'error.validation.invalid.input' };
  if (amount < 0 || (amount === 0 && !options.allowZero))
    return { ok: false, error: 'error.validation.must.be.positive' };
  const amountMinor = Math.round(amount * 100);
  // A value with a third decimal place does not survive the round trip through cents.
  if (Math.abs(amountMinor / 100 - amount) > 1e-9) return { ok: false, error: 'error.validation.max.decimal.places' };
  if (amountMinor > Math.min(options.maxMinor ?? LIMITS.amountMaxMinor, LIMITS.amountMaxMinor))
    return { ok: false, error: 'error.validation.max' };
  return { ok: true, amountMinor };
}

export function minorToAmount(amountMinor: number | bigint): number {
  return Number(amountMinor) / 100;
}

export function formatMoney(amountMinor: number | bigint, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(minorToAmount(amountMinor));
}

/** Direction marks the Hebrew number and date formats put around signs and symbols. */
const DIRECTION_MARKS = /[\u200e\u200f\u061c]/g;

/**
 * Drops the direction marks of a formatted number or date. A screen shows such text inside a left-to-right isolate,
 * which does the marks' job, and inside it the marks would push a leading plus or minus away from the digits.
 */
export function withoutDirectionMarks(text: string): string {
  return text.replace(DIRECTION_MARKS, '');
}

/**
 * A dollar amount as the API sends it (a number with at most two decimals, negative for debits in the ledger) in the
 * language's currency format, ready for a left-to-right isolate. Rounding to cents only removes a JSON number's float
 * noise.
 */
export function formatDollarsForIsolate(amount: number, lang: Language): string {
  return withoutDirectionMarks(formatMoney(Math.round(amount * 100), LANGUAGE_LOCALES[lang]));
}

export const AMOUNT_MAX = LIMITS.amountMaxMinor / 100;

/** A package's price in cents: above zero, at most `LIMITS.planPriceMaxMinor`, at most two decimals. */
export function parsePlanPriceToMinor(price: unknown): AmountCheck {
  return parseAmountToMinor(price, { maxMinor: LIMITS.planPriceMaxMinor });
}

export const PLAN_PRICE_MAX = LIMITS.planPriceMaxMinor / 100;
