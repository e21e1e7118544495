import { addDays } from './subscription-periods';

/**
 * The reminders a subscription's coming renewal or end sends its owner (docs/product.md, Notifications; ADR 0083),
 * as a pure rule over what the read models say at a moment. Every reminder carries its occasion key: the mail and the
 * client's notification are written under it, each at most once, so two sweeps at once or a retry send nothing twice.
 */
export type RenewalReminder =
  | {
      /** An automatic renewal is coming and the balance will not cover it. */
      kind: 'renewal-short';
      occasionKey: string;
      daysBefore: number;
      /** When the automatic renewal charges the balance. */
      paymentDate: Date;
      missingMinor: number;
    }
  | {
      /** A subscription that will not renew by itself is about to end. */
      kind: 'ending';
      occasionKey: string;
      daysBefore: number;
      endDate: Date;
    };

export interface RenewalFailedReminder {
  kind: 'renewal-failed';
  occasionKey: string;
  missingMinor: number;
  /** The end of the period that could not be paid, plus the grace days (docs/product.md, the grace window). */
  graceDeadline: Date;
}

export interface GraceStartedReminder {
  kind: 'grace-started';
  occasionKey: string;
  /** What the balance lacks for the renewal when it lapsed; zero when a top-up already came (the sweep renews it). */
  missingMinor: number;
  /** The unpaid period's end: the account is paused from then. */
  endDate: Date;
  /** The window's end as the lapse fixed it (`SubscriptionLapsed.graceEndsAt`): the login is kept until then. */
  graceEndsAt: Date;
}

/** A live subscription as the reminder rule reads it. */
export interface ReminderSubject {
  subscriptionId: string;
  endDate: Date;
  /**
   * When the automatic renewal charges (the decider's `nextPaymentDateOf`); null when it will not renew by itself
   * (not recurrent, cancelled, switched off, the trial).
   */
  nextPaymentDate: Date | null;
  /** A renewal of this period already failed: the `renewal-failed` reminder speaks from then on. */
  renewalFailed: boolean;
  /** The renewal's price less the balance (a debt adds to it); zero or less when the balance covers it. */
  missingMinor: number;
}

/**
 * The reminder due now, if any: on each of `reminderDays` days before the automatic renewal charges (when the balance
 * will not cover it), or before the end of a subscription that will not renew by itself. Of the reminder days already
 * reached only the latest counts, so a sweep that was down sends one reminder, never the missed ones in a burst; its
 * key names the day, so the same day is never sent twice and an earlier one already sent is not sent again.
 */
export function dueRenewalReminder(
  subject: ReminderSubject,
  now: Date,
  reminderDays: readonly number[],
): RenewalReminder | null {
  if (subject.nextPaymentDate !== null) {
    if (subject.renewalFailed || subject.missingMinor <= 0) return null;
    const daysBefore = latestReachedDay(subject.nextPaymentDate, now, reminderDays);
    if (daysBefore === null) return null;
    return {
      kind: 'renewal-short',
      occasionKey: `renewal-short:${subject.subscriptionId}:${subject.nextPaymentDate.getTime()}:${daysBefore}`,
      daysBefore,
      paymentDate: subject.nextPaymentDate,
      missingMinor: subject.missingMinor,
    };
  }
  const daysBefore = latestReachedDay(subject.endDate, now, reminderDays);
  if (daysBefore === null) return null;
  return {
    kind: 'ending',
    occasionKey: `ending:${subject.subscriptionId}:${subject.endDate.getTime()}:${daysBefore}`,
    daysBefore,
    endDate: subject.endDate,
  };
}

/**
 * After a failed automatic renewal: once per period (its end date is in the key), however many retries fail after it.
 * In GRACE the window's end is already fixed (`graceEndsAt`) and is the deadline; before it, the end plus the grace
 * days configured now.
 */
export function renewalFailedReminder(
  failure: { subscriptionId: string; endDate: Date; missingMinor: number; graceEndsAt?: Date | null },
  graceDays: number,
): RenewalFailedReminder {
  return {
    kind: 'renewal-failed',
    occasionKey: `renewal-failed:${failure.subscriptionId}:${failure.endDate.getTime()}`,
    missingMinor: failure.missingMinor,
    graceDeadline: failure.graceEndsAt ?? addDays(failure.endDate, graceDays),
  };
}

/**
 * When a subscription lapses into its grace window (`SubscriptionLapsed`): once per lapse, its key the subscription
 * and the unpaid period's end, so a retried processor or a second sweep tells the client once.
 */
export function graceStartedReminder(lapse: {
  subscriptionId: string;
  endDate: Date;
  graceEndsAt: Date;
  missingMinor: number;
}): GraceStartedReminder {
  return {
    kind: 'grace-started',
    occasionKey: `grace-started:${lapse.subscriptionId}:${lapse.endDate.getTime()}`,
    missingMinor: Math.max(0, lapse.missingMinor),
    endDate: lapse.endDate,
    graceEndsAt: lapse.graceEndsAt,
  };
}

/** The client portal's one-click top-up of exactly what is missing. */
export function topUpPath(missingMinor: number): string {
  return `/payments/deposit?amountMinor=${missingMinor}`;
}

/** The smallest reminder day whose moment (`days` before `target`) has come, while `target` itself is still ahead. */
function latestReachedDay(target: Date, now: Date, reminderDays: readonly number[]): number | null {
  if (now.getTime() >= target.getTime()) return null;
  const reached = reminderDays.filter((days) => addDays(target, -days).getTime() <= now.getTime());
  return reached.length === 0 ? null : Math.min(...reached);
}
