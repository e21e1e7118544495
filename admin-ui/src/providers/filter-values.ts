import { LIMITS, minorToAmount, parseTypedAmountToMinor } from '@kupa/proto';

/**
 * Helpers that turn filter-form values into search-body values. Date inputs give a calendar day (`YYYY-MM-DD`) in
 * the user's time zone; the API wants instants, so a "from" day starts at local midnight and a "to" day ends at the
 * last millisecond of that local day, which makes both bounds inclusive as a user reads them.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function toInstant(value: unknown, time: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const date = DAY.test(value) ? new Date(`${value}T${time}`) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function toDayStart(value: unknown): string | undefined {
  return toInstant(value, '00:00:00.000');
}

export function toDayEnd(value: unknown): string | undefined {
  return toInstant(value, '23:59:59.999');
}

/** A list filter arrives as an array from a multi-select, or as free text (ids separated by commas or spaces). */
export function toList(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .map(String)
      .map((item) => item.trim())
      .filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(/[\s,]+/)
      .map((item) => item.trim())
      .filter(Boolean);
  if (typeof value === 'number') return [String(value)];
  return [];
}

/** A positive whole number typed into a filter (a payment id), or undefined when the text is not one. */
export function toPositiveInteger(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A price bound typed into a filter, in dollars: a number from 0 to the highest package price with at most two
 * decimals (proto's money rule), or undefined when the text is not one.
 */
export function toPriceBound(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!DECIMAL.test(text)) return undefined;
  const parsed = parseTypedAmountToMinor(text, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor });
  return parsed.ok ? minorToAmount(parsed.amountMinor) : undefined;
}
