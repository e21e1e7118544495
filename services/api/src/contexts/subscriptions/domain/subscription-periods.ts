import { LIMITS } from '@kupa/proto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Calendar months in UTC, a missing day clamped to the month's last: proto's `addCalendarMonths`, which the client
 * portal uses to tell when renewing opens, so both count a period alike. Each renewal counts from the end it extends,
 * so a period that was clamped stays on the earlier day afterwards (31 January → 28 February → 28 March): a client is
 * never charged for a day that does not exist, and never gets the same day twice (docs/adr/0024-subscriptions.md).
 */
export { addCalendarMonths } from '@kupa/proto';

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** When a recurrent subscription that ends at `endDate` is charged for its next period. */
export function renewalChargeDate(endDate: Date): Date {
  return addDays(endDate, -LIMITS.renewalLeadDays);
}
