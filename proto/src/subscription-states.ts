import type { Language } from './enums';
import { clientEnumLabel } from './labels';
import { LIMITS } from './limits';
import type { Subscription } from './payloads';
import { type ColourIntent, subscriptionStatusIntent } from './payment-states';

/**
 * What a person is shown of a subscription's state, the same in both apps (ADR 0076). The stored status alone
 * does not say it: a cancelled subscription stays ACTIVE to its end date, so a plain "Active" chip would promise a
 * renewal that will not come. The shown state adds CANCELLING for that case; every other status shows as itself.
 */
export type SubscriptionShownState = Subscription['status'] | 'CANCELLING';

type StateFacts = Pick<Subscription, 'status' | 'cancelAtPeriodEnd'>;

const CANCELLING_LABEL: Readonly<Record<Language, string>> = Object.freeze({
  he: 'בוטל, פעיל עד הסיום',
  en: 'Cancelled, active to end',
});

export function subscriptionShownState(subscription: StateFacts): SubscriptionShownState {
  return subscription.status === 'ACTIVE' && subscription.cancelAtPeriodEnd ? 'CANCELLING' : subscription.status;
}

export function subscriptionStateLabel(subscription: StateFacts, lang: Language): string {
  const shown = subscriptionShownState(subscription);
  return shown === 'CANCELLING' ? CANCELLING_LABEL[lang] : clientEnumLabel('subscriptionStatus', shown, lang);
}

/** Running to its end without renewing needs an eye, as UNSUBSCRIBED does. */
export function subscriptionStateIntent(subscription: StateFacts): ColourIntent {
  const shown = subscriptionShownState(subscription);
  return shown === 'CANCELLING' ? 'warning' : subscriptionStatusIntent(shown);
}

/**
 * Whether the balance will be charged for the next period by itself: the API's rule (`renewsAutomatically` in the
 * subscriptions decider) over what a screen holds. A trial, a cancelled subscription, one whose automatic renewal was
 * stopped (UNSUBSCRIBED) and one that is neither ACTIVE nor GRACE never renew by themselves, whatever their package's
 * `isRecurrent`. In GRACE the sweep keeps trying the balance until the window closes (ADR 0081).
 */
export function renewsAutomatically(
  subscription: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'isRecurrent' | 'type'>,
): boolean {
  return (
    subscription.type === 'REGULAR' &&
    (subscription.status === 'ACTIVE' || subscription.status === 'GRACE') &&
    subscription.isRecurrent &&
    !subscription.cancelAtPeriodEnd
  );
}

/**
 * `at` plus whole calendar months in UTC, keeping the time of day; a day the target month lacks is clamped to its
 * last day (31 January + 1 month is 28 or 29 February). The subscriptions' periods count so (ADR 0024), and a screen
 * that tells when renewing opens counts the same way.
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

/**
 * Whether renewing now is refused because the subscription is already paid a full period ahead (end − now ≥ its
 * duration): the rule that turns two renewals at once into one (`error.subscription.already.renewed`). Null when
 * renewing is not held back so; otherwise the instant after which it opens, to show before anything is sent.
 */
export function renewalOpensAfter(
  subscription: Pick<Subscription, 'endDate' | 'durationInMonth'>,
  now: Date,
): Date | null {
  if (subscription.endDate === null || subscription.durationInMonth <= 0) return null;
  const end = new Date(subscription.endDate);
  if (end.getTime() < addCalendarMonths(now, subscription.durationInMonth).getTime()) return null;
  return addCalendarMonths(end, -subscription.durationInMonth);
}

/** The end date a renewal now would give: a full period from max(now, end), so no paid day is lost. */
export function renewedEndDate(subscription: Pick<Subscription, 'endDate' | 'durationInMonth'>, now: Date): Date {
  const end = subscription.endDate === null ? now : new Date(subscription.endDate);
  const from = end.getTime() > now.getTime() ? end : now;
  return addCalendarMonths(from, subscription.durationInMonth);
}

/**
 * Whether a cancelled subscription can still be resumed (ADR 0076): cancelled, not ended, and its end date not
 * reached. After the end there is nothing to resume; a new package is bought instead.
 */
export function resumable(
  subscription: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'endDate'>,
  now: Date,
): boolean {
  if (!subscription.cancelAtPeriodEnd) return false;
  if (subscription.status === 'EXPIRED' || subscription.status === 'CANCELED') return false;
  return subscription.endDate === null || new Date(subscription.endDate).getTime() > now.getTime();
}

/**
 * How long one period of the subscription runs, as a screen names it: the package's duration, or the trial's days.
 * A trial stores a duration of 0 months, which is no length a person can read (ADR 0076).
 */
export function subscriptionPeriodLabel(
  subscription: Pick<Subscription, 'type' | 'durationInMonth'>,
  lang: Language,
): string {
  if (subscription.type !== 'REGULAR' || subscription.durationInMonth <= 0) {
    return lang === 'he' ? `${LIMITS.trialDays} ימים` : `${LIMITS.trialDays} days`;
  }
  return clientEnumLabel('planDuration', subscription.durationInMonth, lang);
}
