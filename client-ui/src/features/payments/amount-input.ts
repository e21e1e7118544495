import { AMOUNT_MAX, LIMITS, parseTypedAmountToMinor, type RuleIssue } from '@kupa/proto';

/**
 * Plain decimal notation only: `Number()` would also accept `1e3`, `0x10` or `Infinity`, which no one means. A sign is
 * read, so that a negative amount is answered with "must be positive" rather than "invalid input". The minus may be
 * the ASCII hyphen or the Unicode minus sign that some keyboards and pasted texts use.
 */
const DECIMAL = /^[-+\u2212]?\d+(\.\d+)?$/;

export type AmountInput = { ok: true; amountMinor: number } | { ok: false; issue: RuleIssue };

/**
 * Reads a typed dollar amount with proto's money rules (positive, at most two decimals, at most 99999.99), and
 * gives each problem the parameters its catalogue message names.
 */
export function parseAmountInput(text: string): AmountInput {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, issue: { error: 'error.validation.required' } };
  if (!DECIMAL.test(trimmed)) return { ok: false, issue: { error: 'error.validation.invalid.input' } };
  const check = parseTypedAmountToMinor(trimmed);
  if (check.ok) return check;
  switch (check.error) {
    case 'error.validation.max.decimal.places':
      return { ok: false, issue: { error: check.error, params: { maxDecimalPlaces: LIMITS.amountDecimalPlaces } } };
    case 'error.validation.max':
      return {
        ok: false,
        issue: { error: check.error, params: { max: AMOUNT_MAX.toFixed(LIMITS.amountDecimalPlaces) } },
      };
    default:
      return { ok: false, issue: { error: check.error } };
  }
}

/** Wraps a left-to-right token (an amount, an e-mail) in Unicode isolates: `<bdi>` for texts that are plain strings. */
export function isolateText(text: string): string {
  return `\u2068${text}\u2069`;
}
