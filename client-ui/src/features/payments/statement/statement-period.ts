import { type ErrorCode, LIMITS } from '@kupa/proto';

/** A calendar day as `YYYY-MM-DD`, as the date fields hold it. */
export type IsoDay = string;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first instant of a day in the browser's time zone: a statement's days are the client's own days. */
export function startOfDay(day: IsoDay, addDays = 0): Date {
  const [, year, month, date] = DAY.exec(day) ?? [];
  return new Date(Number(year), Number(month) - 1, Number(date) + addDays);
}

/** Today in the browser's time zone, as a day. */
export function todayOf(now: Date): IsoDay {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first day of the month `now` is in. */
export function monthStartOf(now: Date): IsoDay {
  return `${todayOf(now).slice(0, 8)}01`;
}

/**
 * The period the API is asked for: [first instant of `from`, first instant of the day after `to`), so that the day
 * the client picked as the last is included.
 */
export function periodOf(from: IsoDay, to: IsoDay): { from: string; to: string } {
  return { from: startOfDay(from).toISOString(), to: startOfDay(to, 1).toISOString() };
}

/** What is wrong with a period before it is asked for, by the same limits the API keeps; null when it can be asked. */
export function periodProblem(from: IsoDay, to: IsoDay): ErrorCode | null {
  if (!DAY.test(from) || !DAY.test(to)) return 'error.validation.required';
  if (from > to) return 'error.validation.range.reversed';
  const days = Math.round((startOfDay(to, 1).getTime() - startOfDay(from).getTime()) / 86_400_000);
  return days > LIMITS.statementPeriodMaxDays ? 'error.statement.period.too.long' : null;
}

/** The browser's IANA time zone, which the CSV file writes its date-times in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
