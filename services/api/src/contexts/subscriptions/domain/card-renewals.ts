import type { RenewalFunding } from '@kupa/proto';
import { assert, DomainError } from '../../../kernel';
import { SUBSCRIPTION_ERRORS } from './subscription.errors';
import type { SubscriptionEvent } from './subscription.events';
import {
  type CardRenewalAttempt,
  type ExistingSubscription,
  hasEnded,
  type SubscriptionState,
} from './subscription.state';
import { nextPaymentDateOf, renewsAutomatically } from './subscription.decider';

/**
 * Renewals charged to the saved card off-session (docs/adr/0086-renewals-charged-to-the-saved-card.md): the attempts
 * on the subscription stream. An attempt is recorded before the provider is asked, and its id is in the provider's
 * idempotency key, so every retry of one attempt is the same charge. The rules that make it one charge per period:
 * - at most one attempt is open (recorded, or pending at the provider) per subscription;
 * - at most one attempt per period (the end date it renews) and saved card: a card that failed is not charged again
 *   for that period, a newly saved card may be tried once;
 * - an attempt left without an outcome longer than the provider keeps its keys is ABANDONED, never sent again.
 */

/**
 * How long an attempt may stay open: less than the provider's ~24 hours of idempotency keys, so that a retry is
 * always sent under a key the provider still knows (a retry after that could charge a second time).
 */
export const CARD_RENEWAL_ABANDON_AFTER_MS = 23 * 60 * 60 * 1000;

/** The attempt recorded or pending at the provider, if there is one. */
export function openCardRenewal(subscription: ExistingSubscription): CardRenewalAttempt | null {
  return (
    subscription.cardRenewalAttempts.find((attempt) => attempt.status === 'OPEN' || attempt.status === 'PENDING') ??
    null
  );
}

/**
 * What the card is asked for a renewal that costs `priceMinor` (after the discount): the whole price for `CARD`, what
 * the balance lacks for `BALANCE_THEN_CARD` (0 when the balance covers it: it renews from the balance alone), nothing
 * for `BALANCE`.
 */
export function cardRenewalAmountMinor(funding: RenewalFunding, priceMinor: number, balanceMinor: number): number {
  switch (funding) {
    case 'BALANCE':
      return 0;
    case 'CARD':
      return priceMinor;
    case 'BALANCE_THEN_CARD':
      return Math.max(0, priceMinor - balanceMinor);
  }
}

/** What the sweep does after `startCardRenewal`: charge this attempt (new, or open and sent again) or not. */
export interface CardRenewalStart {
  events: SubscriptionEvent[];
  /** The attempt to send to the provider under its key; null when none may be sent now. */
  charge: CardRenewalAttempt | null;
  /** An attempt is pending at the provider: the subscription waits for its outcome, nothing else happens to it. */
  waiting: boolean;
}

/**
 * The sweep found the renewal due and a saved card to charge `amountMinor`. Refused as already renewed when, under the
 * lock, the next payment date is still ahead (another worker renewed it meanwhile). An open attempt older than
 * `CARD_RENEWAL_ABANDON_AFTER_MS` is abandoned first. Then an attempt still open is the one to send again (two
 * workers: the second sends the same key), one pending at the provider makes the subscription wait, and a card already
 * tried for this period is not tried again; otherwise a new attempt is recorded.
 */
export function startCardRenewal(
  command: { attemptId: string; amountMinor: number; paymentMethodId: string; at: Date },
  state: SubscriptionState,
): CardRenewalStart {
  if (!state.exists) throw new DomainError(SUBSCRIPTION_ERRORS.notFound);
  if (hasEnded(state)) throw new DomainError(SUBSCRIPTION_ERRORS.ended);
  if (!renewsAutomatically(state) || state.endDate === null) throw new DomainError(SUBSCRIPTION_ERRORS.notRenewable);
  // Read under the lock: a worker that found it due before another renewed it must not charge the next period.
  const due = nextPaymentDateOf(state);
  if (due === null || new Date(due).getTime() > command.at.getTime())
    throw new DomainError(SUBSCRIPTION_ERRORS.alreadyRenewed);
  const events: SubscriptionEvent[] = [];
  const open = openCardRenewal(state);
  if (open !== null) {
    // A PaymentIntent the provider holds is read back by its id (the janitor), whatever its age.
    if (open.status === 'PENDING') return { events, charge: null, waiting: true };
    const abandoned = abandonStaleCardRenewal({ at: command.at }, state);
    if (abandoned.length === 0) return { events, charge: open, waiting: false };
    events.push(...abandoned);
  }
  const periodEndDate = state.endDate;
  const tried = state.cardRenewalAttempts.some(
    (attempt) => attempt.periodEndDate === periodEndDate && attempt.paymentMethodId === command.paymentMethodId,
  );
  if (tried) return { events, charge: null, waiting: false };
  assert(
    Number.isSafeInteger(command.amountMinor) && command.amountMinor > 0,
    'a card renewal charges a positive amount',
  );
  const started: SubscriptionEvent = {
    type: 'SubscriptionCardRenewalStarted',
    data: {
      subscriptionId: state.subscriptionId,
      userUuid: state.userUuid,
      attemptId: command.attemptId,
      periodEndDate,
      amountMinor: command.amountMinor,
      paymentMethodId: command.paymentMethodId,
      startedAt: command.at.toISOString(),
    },
  };
  const charge: CardRenewalAttempt = {
    attemptId: command.attemptId,
    periodEndDate,
    amountMinor: command.amountMinor,
    paymentMethodId: command.paymentMethodId,
    startedAt: command.at.toISOString(),
    status: 'OPEN',
    paymentIntentId: null,
    failure: null,
    depositPaymentId: null,
  };
  return { events: [...events, started], charge, waiting: false };
}

/**
 * An attempt recorded but never answered, older than the provider keeps its keys: ABANDONED, so that it is never sent
 * again (a send under an expired key could be a second charge). Nothing for a younger one, or one pending at the
 * provider, whose PaymentIntent is read back instead.
 */
export function abandonStaleCardRenewal(command: { at: Date }, state: SubscriptionState): SubscriptionEvent[] {
  if (!state.exists) return [];
  const open = openCardRenewal(state);
  if (open === null || open.status !== 'OPEN') return [];
  if (command.at.getTime() - new Date(open.startedAt).getTime() <= CARD_RENEWAL_ABANDON_AFTER_MS) return [];
  return [failed(state, open, { outcome: 'ABANDONED', code: 'abandoned', declineCode: null }, command.at)];
}

/** What the provider answered about an attempt, short of its money arriving (`settleCardRenewal`). */
export type CardRenewalAnswer =
  | { outcome: 'pending'; paymentIntentId: string }
  | { outcome: 'requires_action'; paymentIntentId: string | null; code: string }
  | { outcome: 'declined'; paymentIntentId: string | null; code: string; declineCode: string | null };

/**
 * The provider's answer about an attempt without money: `pending` marks an open attempt as waiting for the
 * provider; a decline or a call for the holder fails an attempt that is open or pending. Anything about an attempt
 * that is not open any more (a webhook repeated, or arriving after the money) records nothing.
 */
export function concludeCardRenewal(
  command: { attemptId: string; answer: CardRenewalAnswer; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  if (!state.exists) return [];
  const attempt = state.cardRenewalAttempts.find((candidate) => candidate.attemptId === command.attemptId);
  if (!attempt) return [];
  const { answer } = command;
  if (answer.outcome === 'pending') {
    if (attempt.status !== 'OPEN') return [];
    return [
      {
        type: 'SubscriptionCardRenewalPending',
        data: {
          subscriptionId: state.subscriptionId,
          userUuid: state.userUuid,
          attemptId: attempt.attemptId,
          paymentIntentId: answer.paymentIntentId,
          pendingAt: command.at.toISOString(),
        },
      },
    ];
  }
  if (attempt.status !== 'OPEN' && attempt.status !== 'PENDING') return [];
  const outcome = answer.outcome === 'declined' ? 'DECLINED' : 'REQUIRES_ACTION';
  return [
    failed(
      state,
      { ...attempt, paymentIntentId: answer.paymentIntentId ?? attempt.paymentIntentId },
      { outcome, code: answer.code, declineCode: answer.outcome === 'declined' ? answer.declineCode : null },
      command.at,
    ),
  ];
}

/**
 * The attempt's money arrived, booked as the card deposit `depositPaymentId` in the same append. Once per attempt:
 * money is booked whatever the attempt's state said before (an attempt abandoned while the provider still processed
 * it may still be paid), and never twice.
 */
export function settleCardRenewal(
  command: { attemptId: string; paymentIntentId: string; depositPaymentId: number; at: Date },
  state: SubscriptionState,
): SubscriptionEvent[] {
  if (!state.exists) return [];
  const attempt = state.cardRenewalAttempts.find((candidate) => candidate.attemptId === command.attemptId);
  if (!attempt || attempt.status === 'SETTLED') return [];
  return [
    {
      type: 'SubscriptionCardRenewalSettled',
      data: {
        subscriptionId: state.subscriptionId,
        userUuid: state.userUuid,
        attemptId: attempt.attemptId,
        paymentIntentId: command.paymentIntentId,
        depositPaymentId: command.depositPaymentId,
        settledAt: command.at.toISOString(),
      },
    },
  ];
}

/** The attempt, if the subscription has it and it may still bring money (not settled). */
export function unsettledCardRenewal(state: SubscriptionState, attemptId: string): CardRenewalAttempt | null {
  if (!state.exists) return null;
  return state.cardRenewalAttempts.find((a) => a.attemptId === attemptId && a.status !== 'SETTLED') ?? null;
}

function failed(
  subscription: ExistingSubscription,
  attempt: CardRenewalAttempt,
  why: { outcome: 'DECLINED' | 'REQUIRES_ACTION' | 'ABANDONED'; code: string; declineCode: string | null },
  at: Date,
): SubscriptionEvent {
  return {
    type: 'SubscriptionCardRenewalFailed',
    data: {
      subscriptionId: subscription.subscriptionId,
      userUuid: subscription.userUuid,
      attemptId: attempt.attemptId,
      outcome: why.outcome,
      code: why.code,
      declineCode: why.declineCode,
      paymentIntentId: attempt.paymentIntentId,
      failedAt: at.toISOString(),
    },
  };
}
