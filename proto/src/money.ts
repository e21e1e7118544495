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

/** How a dollar amount is written, exactly: digits, then at most two decimals; no sign, exponent or leading zeros. */
const AMOUNT_TEXT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
/** A plain decimal with more decimals than cents: refused as such, not rounded. */
const DECIMAL_TEXT = /^(0|[1-9][0-9]*)\.[0-9]+$/;
/** A plain number below zero, `-0` included. */
const NEGATIVE_TEXT = /^-(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * An amount as it was written (a JSON number's source text, or what a form field holds), checked exactly as written
 * (docs/adr/0058-money-paths-keep-their-promises.md): `12`, `12.5` and `12.50` are dollars; `1E-2`, `1e2`, `12.345`,
 * `1.0000000000000001`, `-0` and `0x10` are refused, never rounded, although some of them read as a fine number once
 * parsed. The bounds are `parseAmountToMinor`'s.
 */
export function parseAmountTextToMinor(
  text: string,
  options: { allowZero?: boolean; maxMinor?: number } = {},
): AmountCheck {
  if (!AMOUNT_TEXT.test(text)) {
    if (NEGATIVE_TEXT.test(text)) return { ok: false, error: 'error.validation.must.be.positive' };
    if (DECIMAL_TEXT.test(text)) return { ok: false, error: 'error.validation.max.decimal.places' };
    return { ok: false, error: 'error.validation.invalid.input' };
  }
  return parseAmountToMinor(Number(text), options);
}

/**
 * An amount typed into a form, checked as written like a request's (a typed `1.0000000000000001` is not rounded to 1):
 * surrounding spaces, a plus sign, the Unicode minus and leading zeros are forgiven, nothing else.
 */
export function parseTypedAmountToMinor(
  text: string,
  options: { allowZero?: boolean; maxMinor?: number } = {},
): AmountCheck {
  const written = text
    .trim()
    .replace(/^\+/, '')
    .replace(/^\u2212/, '-')
    .replace(/^(-?)0+(?=[0-9])/, '$1');
  return parseAmountTextToMinor(written, options);
}

/** Whether a JSON number's source text is an amount as `parseAmountTextToMinor` admits it, bounds aside. */
export function isExactAmountText(text: string): boolean {
  return AMOUNT_TEXT.test(text);
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

/** The breakable spaces `Intl` puts between a date's day, month, year and time. */
const BREAKABLE_SPACES = / /g;

/**
 * A formatted date or date-time that a line never breaks inside: its spaces become no-break spaces (U+00A0), so a
 * sentence that names it wraps before or after it, never between "29 Dec" and "2026". One place for both apps' dates,
 * however a screen places them (inside a translated sentence, a table cell, a dialog).
 */
export function keptOnOneLine(text: string): string {
  return text.replace(BREAKABLE_SPACES, '\u00a0');
}

/**
 * Building an `Intl` formatter costs far more than formatting one value (a list formats an amount per row on every
 * render), so each is built once per language and kept.
 */
const DOLLAR_FORMATS = new Map<string, Intl.NumberFormat>();
function dollarFormat(lang: Language, signed: boolean): Intl.NumberFormat {
  const key = `${lang}:${signed}`;
  let format = DOLLAR_FORMATS.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(LANGUAGE_LOCALES[lang], {
      style: 'currency',
      currency: 'USD',
      ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
    });
    DOLLAR_FORMATS.set(key, format);
  }
  return format;
}

/**
 * The one money format of both apps (docs/adr/0079-say-what-happened-and-keep-what-was-typed.md): a dollar amount as
 * the API sends it (a number with at most two decimals, negative for debits in the ledger) in the page language's
 * currency format, without direction marks, always shown in a left-to-right isolate (`<bdi dir="ltr">`). The sign
 * therefore sits where the language puts it and nowhere else: `$1,234.50` in English, `1,234.50 $` in Hebrew, in
 * the balance and in every list alike. Rounding to cents only removes a JSON number's float noise.
 */
export function formatDollarsForIsolate(amount: number, lang: Language): string {
  return withoutDirectionMarks(dollarFormat(lang, false).format(Math.round(amount * 100) / 100));
}

/** Like `formatDollarsForIsolate`, with an explicit sign: `+$5.00` for money in, `-$5.00` for money out. */
export function formatSignedDollarsForIsolate(amount: number, lang: Language): string {
  return withoutDirectionMarks(dollarFormat(lang, true).format(Math.round(amount * 100) / 100));
}

/** Builds the language's money formats ahead of the first amount on screen (docs/adr/0054-formatters-built-ahead.md). */
export function prepareDollarFormats(lang: Language): void {
  dollarFormat(lang, false);
  dollarFormat(lang, true);
}

export const AMOUNT_MAX = LIMITS.amountMaxMinor / 100;

/** A package's price in cents: above zero, at most `LIMITS.planPriceMaxMinor`, at most two decimals. */
export function parsePlanPriceToMinor(price: unknown): AmountCheck {
  return parseAmountToMinor(price, { maxMinor: LIMITS.planPriceMaxMinor });
}

export const PLAN_PRICE_MAX = LIMITS.planPriceMaxMinor / 100;
