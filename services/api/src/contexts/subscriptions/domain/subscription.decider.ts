import {
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  type Currency,
  discountedPriceMinor,
  LIMITS,
  type RenewalFunding,
  type SubscriptionExtensionSource,
  type SubscriptionVoucherOrigin,
  usesSavedCard,
} from '@kupa/proto';
import { assert, DomainError, type Evolution } from '../../../kernel';
import { SUBSCRIPTION_ERRORS } from './subscription.errors';
import type { SubscriptionEvent } from './subscription.events';
import { firstPeriod } from './first-period';
import { addCalendarMonths, addDays, renewalChargeDate } from './subscription-periods';
import {
  evolveSubscription,
  type ExistingSubscription,
  hasEnded,
  initialSubscriptionState,
  type SubscriptionState,
} from './subscription.state';

/**
 * The subscription stream's decisions (docs/product.md, Subscriptions): one pure function per command, each from the
 * command and the folded state to the events it appends (or a `DomainError`). Time arrives inside the command as
 * `at`. Facts the stream cannot know arrive inside the command too: the package's terms (read under the package's
 * stream lock), the referral discount, the payment id. Whether the user may still take the trial is the user
 * stream's rule (identity's `markTrialUsed`), decided in the same command.
 *
 * Commands a processor runs (activation, renewal, renewal failure, the end, a failed provisioning) answer an event
 * that already happened with nothing rather than an error, so that a processor that retries after a crash does not
 * stall on its own earlier success.
 */

/** How a subscription stream's state follows from its events: what the command pipeline folds. */
export const subscriptionEvolution: Evolution<SubscriptionState, SubscriptionEvent> = {
  evolve: evolveSubscription,
  initialState: initialSubscriptionState,
};

/** The package a purchase names, as its stream tells it under its lock. */
export interface PurchasedPlan {
  planId: string;
  planName: string;
  durationInMonths: number;
  /** The package's price: the list price, before any discount. */
  priceMinor: number;
  currency: Currency;
  isRecurrent: boolean;
}

function existing(state: SubscriptionState): ExistingSubscription {
  if (!state.exists) throw new DomainError(SUBSCRIPTION_ERRORS.notFound);
  return state;
}

function notEnded(state: SubscriptionState): ExistingSubscription {
  const subscription = existing(state);
  if (hasEnded(subscription)) throw new DomainError(SUBSCRIPTION_ERRORS.ended);
  return subscription;
}

function isTrial(subscription: ExistingSubscription): boolean {
  return subscription.type !== 'REGULAR';
}

function assertLogin(login: string): void {
  if (checkSubscriptionLogin(login)) throw new DomainError(SUBSCRIPTION_ERRORS.invalidLogin, { field: 'login' });
}

/** The password itself never reaches an event; the decider only holds it to the rule. */
function assertPassword(password: string): void {
  if (checkSubscriptionPassword(password))
    throw new DomainError(SUBSCRIPTION_ERRORS.invalidPassword, { field: 'password' });
}

function assertDiscount(discountPercent: number, codeDiscountMinor: number, listPriceMinor: number): void {
  assert(
    Number.isInteger(discountPercent) && discountPercent >= 0 && discountPercent < 100,
    `a discount of ${discountPercent} % must be a whole percentage below 100`,
  );
  // A promo code and the referral discount never add up (docs/adr/0088-promo-codes.md); a price stays positive.
  assert(
    Number.isSafeInteger(codeDiscountMinor) &&
      (codeDiscountMinor === 0 || (codeDiscountMinor < listPriceMinor && discountPercent === 0)),
    `a promo code's ${codeDiscountMinor} off is alone and leaves a positive price`,
  );
}

/** The price paid: the list price less the referral percent, or less a promo code's amount (never both). */
function paidPriceMinor(listPriceMinor: number, discountPercent: number, codeDiscountMinor: number): number {
  return discountedPriceMinor(listPriceMinor, discountPercent) - codeDiscountMinor;
}

/** Every purchase (bought, trial, day voucher): a new stream, and a login and password the service accepts. */
function assertNewPurchase(
  command: { subscriptionId: string; login: string; password: string },
  state: SubscriptionState,
): void {
  assert(!state.exists, `subscription ${command.subscriptionId} is purchased once`);
  assertLogin(command.login);
  assertPassword(command.password);
}

/** What a purchase of a package records whatever paid for it: who, the package's terms, the login, when. */
function packagePurchase(
  command: { subscriptionId: string; userUuid: string; userEmail: string; login: string; at: Date },
  plan: PurchasedPlan,
) {
  return {
    subscriptionId: command.subscriptionId,
    userUuid: command.userUuid,
    userEmail: command.userEmail,
    type: 'REGULAR' as const,
    planId: plan.planId,
    planName: plan.planName,
    durationInMonths: plan.durationInMonths,
    trialDays: null,
    listPriceMinor: plan.priceMinor,
    currency: plan.currency,
    isRecurrent: plan.isRecurrent,
    login: command.login,
    purchasedAt: command.at.toISOString(),
  };
}

export function purchaseSubscription(
  command: {
    subscriptionId: string;
    userUuid: string;
    userEmail: string;
    plan: PurchasedPlan;
    discountPercent: number;
    /** What a promo code takes off, in minor units, when it won over the referral discount; 0 without one. */
    codeDiscountMinor?: number;
    paymentId: number;
    login: string;
    password: string;
    at: Date;
  },
  state: SubscriptionState,
): SubscriptionEvent[] {
  assertNewPurchase(command, state);
  const { plan } = command;
  const codeDiscountMinor = command.codeDiscountMinor ?? 0;
  assertDiscount(command.discountPercent, codeDiscountMinor, plan.priceMinor);
  return [
    {
      type: 'SubscriptionPurchased',
      data: {
        ...packagePurchase(command, plan),
        priceMinor: paidPriceMinor(plan.priceMinor, command.discountPercent, codeDiscountMinor),
        discountPercent: command.discountPercent,
        paymentId: command.paymentId,
      },
    },
  ];
}

/** The trial: free, `LIMITS.trialDays` long, never recurrent. Once per user is the user stream's rule. */
export function purchaseTrial(
  command: { subscriptionId: string; userUuid: string; userEmail: string; login: string; password: string; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  assertNewPurchase(command, state);
  return [
    {
      type: 'SubscriptionPurchased',
      data: {
        subscriptionId: command.subscriptionId,
        userUuid: command.userUuid,
        userEmail: command.userEmail,
        type: 'TRIAL_FOR_NEW_USERS',
        planId: null,
        planName: null,
        durationInMonths: 0,
        trialDays: LIMITS.trialDays,
        priceMinor: 0,
        listPriceMinor: 0,
        discountPercent: 0,
        currency: 'USD',
        isRecurrent: false,
        login: command.login,
        paymentId: null,
        purchasedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * A subscription started by a day voucher's code (ADR 0089): the package's terms as a purchase takes them, but nothing
 * is charged (price 0, no payment) and its first period is the code's days, from its activation as for a bought one.
 * The list price stays the package's, so a renewal after it costs what the package costs. It goes through the same
 * PENDING → provisioning → ACTIVE path as a bought one.
 */
export function purchaseWithDayVoucher(
  command: {
    subscriptionId: string;
    userUuid: string;
    userEmail: string;
    plan: PurchasedPlan;
    voucher: SubscriptionVoucherOrigin;
    login: string;
    password: string;
    at: Date;
  },
  state: SubscriptionState,
): SubscriptionEvent[] {
  assertNewPurchase(command, state);
  const { plan, voucher } = command;
  assert(
    Number.isInteger(voucher.days) && voucher.days >= 1 && voucher.days <= LIMITS.extensionMaxDays,
    `${voucher.days} days are a whole number from 1 to ${LIMITS.extensionMaxDays}`,
  );
  return [
    {
      type: 'SubscriptionPurchased',
      data: { ...packagePurchase(command, plan), priceMinor: 0, discountPercent: 0, paymentId: null, voucher },
    },
  ];
}

/**
 * The streaming service holds the account: the first period starts, at the purchase when the account came promptly
 * with that period's end as its expiry (`accountExpiresAt`, what the `CREATE_ACCOUNT` call sent), else now (ADR 0136,
 * `firstPeriod`). Only a PENDING subscription starts.
 */
export function activateSubscription(
  command: { at: Date; accountExpiresAt?: Date | null },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = existing(state);
  if (subscription.status !== 'PENDING') return [];
  const period = firstPeriod(
    { ...subscription, purchasedAt: new Date(subscription.purchasedAt) },
    { at: command.at, accountExpiresAt: command.accountExpiresAt ?? null },
  );
  return [
    {
      type: 'SubscriptionActivated',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        startDate: period.startDate.toISOString(),
        endDate: period.endDate.toISOString(),
        activatedAt: command.at.toISOString(),
        periodFrom: period.from,
      },
    },
  ];
}

/**
 * One more period from the balance; the price is the package's price as bought, less the referral discount of the
 * moment. The new end is max(now, end) + the duration, so renewing early never loses paid days and renewing late
 * never gives free ones. Refused when it is already paid a full period ahead (end − now ≥ the duration): that is
 * what turns two renewals at once into one. Renewable are running paid subscriptions (ACTIVE, also when cancelled
 * — paying again withdraws the cancellation — or UNSUBSCRIBED, which still never renews by itself); not a trial,
 * not a PENDING one (its period has not started), and not one that ended (its account is gone: buy a new one).
 * One in GRACE (ADR 0081) renews too, by hand or by the sweep: its end passed, so the new period starts at the
 * payment, and it is ACTIVE again. The automatic renewal charges only subscriptions that renew by themselves.
 */
export function renewSubscription(
  command: { paymentId: number; discountPercent: number; codeDiscountMinor?: number; at: Date; automatic: boolean },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = notEnded(state);
  const codeDiscountMinor = command.codeDiscountMinor ?? 0;
  assertDiscount(command.discountPercent, codeDiscountMinor, subscription.listPriceMinor);
  if (isTrial(subscription) || subscription.status === 'PENDING' || subscription.endDate === null)
    throw new DomainError(SUBSCRIPTION_ERRORS.notRenewable);
  if (command.automatic && !renewsAutomatically(subscription)) throw new DomainError(SUBSCRIPTION_ERRORS.notRenewable);
  const end = new Date(subscription.endDate);
  if (end.getTime() >= addCalendarMonths(command.at, subscription.durationInMonths).getTime())
    throw new DomainError(SUBSCRIPTION_ERRORS.alreadyRenewed);
  const from = end.getTime() > command.at.getTime() ? end : command.at;
  const listPriceMinor = subscription.listPriceMinor;
  return [
    {
      type: 'SubscriptionRenewed',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        paymentId: command.paymentId,
        priceMinor: paidPriceMinor(listPriceMinor, command.discountPercent, codeDiscountMinor),
        listPriceMinor,
        discountPercent: command.discountPercent,
        previousEndDate: subscription.endDate,
        endDate: addCalendarMonths(from, subscription.durationInMonths).toISOString(),
        renewedAt: command.at.toISOString(),
        automatic: command.automatic,
      },
    },
  ];
}

/**
 * Adds days without a payment (docs/adr/0089-prepaid-vouchers.md, ADR 0089 "Extensions"): staff, a bulk operation or
 * a day voucher. Extendable is a subscription whose period runs (ACTIVE, UNSUBSCRIBED, also when cancelled: it still
 * ends at its new end date) or one in GRACE, whose days count from now since its end passed (it is ACTIVE again, as
 * after a renewal). A PENDING one has no period yet (its activation would set the end date over the days), one that
 * ended has no account: both are refused. A trial may be extended by staff like any other. The same idempotency key
 * again adds nothing, so a resumed bulk batch or a retried redemption never gives the days twice.
 */
export function extendSubscription(
  command: {
    days: number;
    reason: string;
    source: SubscriptionExtensionSource;
    actorId: string;
    batchId: string | null;
    voucherBatchId: string | null;
    idempotencyKey: string;
    at: Date;
  },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (subscription.extensionKeys.includes(command.idempotencyKey)) return [];
  if (subscription.status === 'PENDING' || subscription.endDate === null)
    throw new DomainError(SUBSCRIPTION_ERRORS.notExtendable);
  assert(
    Number.isInteger(command.days) && command.days >= 1 && command.days <= LIMITS.extensionMaxDays,
    `${command.days} days are a whole number from 1 to ${LIMITS.extensionMaxDays}`,
  );
  const reason = command.reason.trim();
  assert(reason.length > 0, 'an extension says why');
  assert((command.source === 'BULK') === (command.batchId !== null), 'a bulk extension, and only one, names its batch');
  assert(
    (command.source === 'VOUCHER') === (command.voucherBatchId !== null),
    'a voucher extension, and only one, names its voucher batch',
  );
  const end = new Date(subscription.endDate);
  const from = end.getTime() > command.at.getTime() ? end : command.at;
  return [
    {
      type: 'SubscriptionExtended',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        days: command.days,
        reason,
        source: command.source,
        actorId: command.actorId,
        batchId: command.batchId,
        voucherBatchId: command.voucherBatchId,
        idempotencyKey: command.idempotencyKey,
        previousEndDate: subscription.endDate,
        endDate: addDays(from, command.days).toISOString(),
        extendedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * What the balance lacks for a renewal: the price as bought less the owner's referral discount, minus the balance (a
 * debt adds to it). Zero or less when the balance covers it. The sweep, the reminders and the mails all count it so.
 */
export function renewalMissingMinor(listPriceMinor: number, discountPercent: number, balanceMinor: number): number {
  return discountedPriceMinor(listPriceMinor, discountPercent) - balanceMinor;
}

/**
 * Whether the renewal sweep charges this subscription: recurrent, ACTIVE or in its grace window, neither cancelled
 * nor switched off.
 */
export function renewsAutomatically(subscription: ExistingSubscription): boolean {
  return (
    (subscription.status === 'ACTIVE' || subscription.status === 'GRACE') &&
    subscription.isRecurrent &&
    !subscription.cancelAtPeriodEnd &&
    !subscription.recurrenceDeactivated
  );
}

/**
 * When the automatic renewal charges the balance (`LIMITS.renewalLeadDays` before the end, or the next attempt after
 * a failed one); null when it never will.
 */
export function nextPaymentDateOf(subscription: ExistingSubscription): string | null {
  if (!renewsAutomatically(subscription) || subscription.endDate === null) return null;
  const chargeDate = renewalChargeDate(new Date(subscription.endDate)).toISOString();
  const retry = subscription.renewalRetryAt;
  return retry !== null && retry > chargeDate ? retry : chargeDate;
}

/**
 * The automatic renewal found the balance short; the sweep tries again at `nextAttemptAt`. Nothing while an earlier
 * failure's next attempt is still ahead: two sweeps that both found the balance short record (and mail) it once.
 */
export function recordRenewalFailure(
  command: { missingMinor: number; nextAttemptAt: Date; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (!renewsAutomatically(subscription)) throw new DomainError(SUBSCRIPTION_ERRORS.notRenewable);
  if (subscription.renewalRetryAt !== null && new Date(subscription.renewalRetryAt).getTime() > command.at.getTime())
    return [];
  assert(Number.isSafeInteger(command.missingMinor) && command.missingMinor > 0, 'a failed renewal misses money');
  return [
    {
      type: 'SubscriptionRenewalFailed',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        missingMinor: command.missingMinor,
        attemptedAt: command.at.toISOString(),
        nextAttemptAt: command.nextAttemptAt.toISOString(),
      },
    },
  ];
}

/**
 * Stays as it is to its end date, then ends CANCELED; never renews. A trial cannot be cancelled, nor one in GRACE: its
 * period is over already, it is renewed or left to end (ADR 0081).
 */
export function cancelSubscription(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (isTrial(subscription)) throw new DomainError(SUBSCRIPTION_ERRORS.trialCannotBeCancelled);
  if (subscription.status === 'GRACE') throw new DomainError(SUBSCRIPTION_ERRORS.inGrace);
  if (subscription.cancelAtPeriodEnd) return [];
  return [
    {
      type: 'SubscriptionCancelled',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        cancelledAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Withdraws a cancellation before the end date (ADR 0076): the subscription runs on as if never cancelled, and renews
 * by itself again when its package is recurrent and its renewal was not stopped. At or after the end date it is too
 * late (the end processor may not have run yet, but the period is over: a new package is bought instead); one that
 * ended is refused as ended; one that is not cancelled has nothing to resume.
 */
export function resumeSubscription(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (!subscription.cancelAtPeriodEnd) throw new DomainError(SUBSCRIPTION_ERRORS.notCancelled);
  if (subscription.endDate !== null && new Date(subscription.endDate).getTime() <= command.at.getTime())
    throw new DomainError(SUBSCRIPTION_ERRORS.resumeTooLate);
  return [
    {
      type: 'SubscriptionResumed',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        resumedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Switches the automatic renewal off for good: UNSUBSCRIBED, access to the end date, never charged again. Not in
 * GRACE, which has no access left to run to: it is renewed or left to end (ADR 0081).
 */
export function deactivateRecurrence(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (subscription.status === 'GRACE') throw new DomainError(SUBSCRIPTION_ERRORS.inGrace);
  if (!subscription.isRecurrent || subscription.recurrenceDeactivated) return [];
  return [
    {
      type: 'SubscriptionRecurrenceDeactivated',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        deactivatedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * The end date passed. One that renews by itself (its renewal could not be paid) lapses into GRACE for `graceDays`
 * from its end date (ADR 0081), the window's end fixed in the event; one whose window passed meanwhile (the sweep was
 * down) ends at once. Every other one, and one in GRACE whose window has closed, ends: CANCELED when it was
 * cancelled, EXPIRED otherwise. Nothing before the end date (or the window's end), nothing for a PENDING subscription
 * (it has no end yet) and nothing for one that already ended. The lapse records what the balance lacks for the renewal
 * then (`discountPercent`, `balanceMinor` as of the command), so the reminder sent later tells what was true at it.
 */
export function endSubscription(
  command: { at: Date; graceDays: number; discountPercent: number; balanceMinor: number },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = existing(state);
  if (hasEnded(subscription) || subscription.endDate === null) return [];
  const endDate = new Date(subscription.endDate);
  if (endDate.getTime() > command.at.getTime()) return [];
  if (subscription.status === 'GRACE') {
    if (subscription.graceEndsAt !== null && new Date(subscription.graceEndsAt).getTime() > command.at.getTime())
      return [];
  } else if (renewsAutomatically(subscription)) {
    assert(Number.isInteger(command.graceDays) && command.graceDays > 0, 'a grace window lasts whole days');
    const graceEndsAt = addDays(endDate, command.graceDays);
    if (graceEndsAt.getTime() > command.at.getTime())
      return [
        {
          type: 'SubscriptionLapsed',
          data: {
            subscriptionId: subscription.subscriptionId,
            userUuid: subscription.userUuid,
            endDate: subscription.endDate,
            graceEndsAt: graceEndsAt.toISOString(),
            lapsedAt: command.at.toISOString(),
            missingMinor: Math.max(
              0,
              renewalMissingMinor(subscription.listPriceMinor, command.discountPercent, command.balanceMinor),
            ),
          },
        },
      ];
  }
  return [
    {
      type: 'SubscriptionEnded',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        status: subscription.cancelAtPeriodEnd ? 'CANCELED' : 'EXPIRED',
        endedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Staff refunded one of its payments to the balance and chose to end it now (ADR 0092): CANCELED at once, whatever its
 * end date, and its account disabled at the streaming service like any ended one. One that ended already stays so.
 */
export function endSubscriptionForRefund(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = existing(state);
  if (hasEnded(subscription)) return [];
  return [
    {
      type: 'SubscriptionEnded',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        status: 'CANCELED',
        endedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Not in GRACE (ADR 0081, amended): the account is disabled at the streaming service and its login is what the window
 * keeps for the owner; renaming a disabled account there is a risk for nothing, so the owner renews first.
 */
export function changeLogin(command: { login: string }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (subscription.status === 'GRACE') throw new DomainError(SUBSCRIPTION_ERRORS.inGrace);
  if (isTrial(subscription)) throw new DomainError(SUBSCRIPTION_ERRORS.trialLoginCannotBeChanged);
  assertLogin(command.login);
  if (subscription.login === command.login) return [];
  return [
    {
      type: 'SubscriptionLoginChanged',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        previousLogin: subscription.login,
        login: command.login,
      },
    },
  ];
}

/**
 * Always an event, even for the same password: the streaming service is told again, which is what was asked. Not in
 * GRACE: the paused account is left as it was disabled until a renewal brings it back (ADR 0081, amended).
 */
export function changePassword(command: { password: string; at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (subscription.status === 'GRACE') throw new DomainError(SUBSCRIPTION_ERRORS.inGrace);
  assertPassword(command.password);
  return [
    {
      type: 'SubscriptionPasswordChanged',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        changedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * The streaming service refused the account for good: the subscription never started and ends CANCELED, its login
 * free again; the handler refunds the payment in the same command. Only a PENDING subscription can fail so.
 */
export function failProvisioning(
  command: { reason: string; refundPaymentId: number | null; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = existing(state);
  if (subscription.status !== 'PENDING') return [];
  assert(
    (command.refundPaymentId === null) === (subscription.priceMinor === 0),
    'a paid subscription is refunded when it fails, a free one is not',
  );
  return [
    {
      type: 'SubscriptionProvisioningFailed',
      data: {
        subscriptionId: subscription.subscriptionId,
        userUuid: subscription.userUuid,
        reason: command.reason,
        refundPaymentId: command.refundPaymentId,
        failedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * The owner chooses how the automatic renewal is paid (docs/adr/0085-saved-cards.md): only a subscription that still
 * renews by itself has a choice, and a choice that uses the card needs a saved card now (`hasSavedCard`, read under
 * the saved card stream's lock). The same choice again records nothing.
 */
export function chooseRenewalFunding(
  command: { funding: RenewalFunding; hasSavedCard: boolean; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = notEnded(state);
  if (!subscription.isRecurrent || subscription.recurrenceDeactivated)
    throw new DomainError(SUBSCRIPTION_ERRORS.fundingNotRecurrent);
  if (usesSavedCard(command.funding) && !command.hasSavedCard) throw new DomainError(SUBSCRIPTION_ERRORS.cardNotSaved);
  if (subscription.renewalFunding === command.funding) return [];
  return [fundingChanged(subscription, command.funding, 'CHOSEN', command.at)];
}

/**
 * The saved card was removed: a subscription whose renewal used it is paid from the balance again, so a card saved
 * later is never charged without its owner choosing it again. Nothing for one that ended or already pays from the
 * balance.
 */
export function fallBackToBalanceFunding(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  if (!state.exists || hasEnded(state) || !usesSavedCard(state.renewalFunding)) return [];
  return [fundingChanged(state, 'BALANCE', 'CARD_REMOVED', command.at)];
}

function fundingChanged(
  subscription: ExistingSubscription,
  funding: RenewalFunding,
  reason: 'CHOSEN' | 'CARD_REMOVED',
  at: Date,
): SubscriptionEvent {
  return {
    type: 'SubscriptionRenewalFundingChanged',
    data: {
      subscriptionId: subscription.subscriptionId,
      userUuid: subscription.userUuid,
      funding,
      previousFunding: subscription.renewalFunding,
      reason,
      changedAt: at.toISOString(),
    },
  };
}
