import { LIMITS } from '@kupa/proto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `at` plus whole calendar months in UTC, keeping the time of day. A day of the month the target month does not have
 * is clamped to that month's last day: 31 January + 1 month is 28 (or 29) February, 31 August + 1 month is
 * 30 September. Each renewal counts from the end it extends, so a period that was clamped stays on the earlier day
 * afterwards (31 January → 28 February → 28 March): a client is never charged for a day that does not exist, and
 * never gets the same day twice (docs/adr/0024-subscriptions.md).
 */
export function addCalendarMonths(at: Date, months: number): Date {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(at.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(year, month, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()),
  );
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** When a recurrent subscription that ends at `endDate` is charged for its next period. */
export function renewalChargeDate(endDate: Date): Date {
  return addDays(endDate, -LIMITS.renewalLeadDays);
}
