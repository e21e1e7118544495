import {
  type CardRenewalFailure,
  type Currency,
  DEFAULT_RENEWAL_FUNDING,
  type RenewalFunding,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kupa/proto';
import type { SubscriptionEvent } from './subscription.events';

export interface ExistingSubscription {
  exists: true;
  subscriptionId: string;
  userUuid: string;
  type: SubscriptionType;
  planId: string | null;
  durationInMonths: number;
  trialDays: number | null;
  /** When it was bought: a first period may count from it (ADR 0136). */
  purchasedAt: string;
  /** The days of the first period when a day voucher started it (ADR 0089); null otherwise. */
  voucherDays: number | null;
  /** What the last period cost, after the discount. */
  priceMinor: number;
  /** The package's price as bought: every renewal starts from it (a referenced package keeps its price). */
  listPriceMinor: number;
  currency: Currency;
  isRecurrent: boolean;
  login: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  /** Switched off for good: shows as UNSUBSCRIBED from activation on, and is never charged again. */
  recurrenceDeactivated: boolean;
  startDate: string | null;
  endDate: string | null;
  /** After a failed automatic renewal: when the sweep tries again (null once renewed, or before any failure). */
  renewalRetryAt: string | null;
  /** In GRACE (ADR 0081): until when renewing brings it back; null in every other status. */
  graceEndsAt: string | null;
  /** How the automatic renewal is paid (docs/adr/0085-saved-cards.md): the balance unless its owner chose the card. */
  renewalFunding: RenewalFunding;
  /** Every off-session card renewal attempt, oldest first (docs/adr/0086-renewals-charged-to-the-saved-card.md). */
  cardRenewalAttempts: CardRenewalAttempt[];
  /** The idempotency keys of the extensions applied (ADR 0089): the same request again adds no days. */
  extensionKeys: readonly string[];
}

/** One off-session charge of the saved card for a renewal, as the stream tells it. */
export interface CardRenewalAttempt {
  attemptId: string;
  /** The end date of the period the attempt renews: one attempt per period and card. */
  periodEndDate: string;
  amountMinor: number;
  paymentMethodId: string;
  startedAt: string;
  /** OPEN: recorded, no outcome yet; PENDING: the provider is processing `paymentIntentId`. */
  status: 'OPEN' | 'PENDING' | 'FAILED' | 'SETTLED';
  paymentIntentId: string | null;
  failure: CardRenewalFailure | null;
  depositPaymentId: number | null;
}

/** A subscription stream before its purchase, or a subscription that exists. */
export type SubscriptionState = { exists: false } | ExistingSubscription;

export function initialSubscriptionState(): SubscriptionState {
  return { exists: false };
}

/** The statuses after which nothing more happens to a subscription. */
export function hasEnded(subscription: ExistingSubscription): boolean {
  return subscription.status === 'EXPIRED' || subscription.status === 'CANCELED';
}

export function evolveSubscription(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  if (event.type === 'SubscriptionPurchased') {
    const data = event.data;
    return {
      exists: true,
      subscriptionId: data.subscriptionId,
      userUuid: data.userUuid,
      type: data.type,
      planId: data.planId,
      durationInMonths: data.durationInMonths,
      trialDays: data.trialDays,
      purchasedAt: data.purchasedAt,
      voucherDays: data.voucher?.days ?? null,
      priceMinor: data.priceMinor,
      listPriceMinor: data.listPriceMinor,
      currency: data.currency,
      isRecurrent: data.isRecurrent,
      login: data.login,
      status: 'PENDING',
      cancelAtPeriodEnd: false,
      recurrenceDeactivated: false,
      startDate: null,
      endDate: null,
      renewalRetryAt: null,
      graceEndsAt: null,
      renewalFunding: DEFAULT_RENEWAL_FUNDING,
      cardRenewalAttempts: [],
      extensionKeys: [],
    };
  }
  // Every other event changes a subscription that exists; one on an empty stream would be corrupt history.
  if (!state.exists) throw new Error(`Event ${event.type} on a subscription stream with no purchase`);
  switch (event.type) {
    case 'SubscriptionActivated':
      return {
        ...state,
        status: state.recurrenceDeactivated ? 'UNSUBSCRIBED' : 'ACTIVE',
        startDate: event.data.startDate,
        endDate: event.data.endDate,
      };
    case 'SubscriptionRenewed':
      return {
        ...state,
        priceMinor: event.data.priceMinor,
        endDate: event.data.endDate,
        cancelAtPeriodEnd: false,
        renewalRetryAt: null,
        // Renewed within the grace window: running again (ADR 0081).
        status: state.status === 'GRACE' ? 'ACTIVE' : state.status,
        graceEndsAt: null,
      };
    case 'SubscriptionRenewalFailed':
      return { ...state, renewalRetryAt: event.data.nextAttemptAt };
    case 'SubscriptionPasswordChanged':
      return state;
    case 'SubscriptionCancelled':
      return { ...state, cancelAtPeriodEnd: true };
    case 'SubscriptionResumed':
      return { ...state, cancelAtPeriodEnd: false };
    case 'SubscriptionRecurrenceDeactivated':
      return {
        ...state,
        recurrenceDeactivated: true,
        status: state.status === 'ACTIVE' ? 'UNSUBSCRIBED' : state.status,
      };
    case 'SubscriptionEnded':
      return { ...state, status: event.data.status, graceEndsAt: null };
    case 'SubscriptionLoginChanged':
      return { ...state, login: event.data.login };
    case 'SubscriptionProvisioningFailed':
      return { ...state, status: 'CANCELED' };
    case 'SubscriptionLapsed':
      return { ...state, status: 'GRACE', graceEndsAt: event.data.graceEndsAt };
    case 'SubscriptionRenewalFundingChanged':
      return { ...state, renewalFunding: event.data.funding };
    case 'SubscriptionExtended':
      return {
        ...state,
        endDate: event.data.endDate,
        renewalRetryAt: null,
        // Days added within the grace window bring the account back, as a renewal does (ADR 0081, ADR 0089).
        status: state.status === 'GRACE' ? 'ACTIVE' : state.status,
        graceEndsAt: null,
        extensionKeys: [...state.extensionKeys, event.data.idempotencyKey],
      };
    case 'SubscriptionCardRenewalStarted': {
      const { attemptId, periodEndDate, amountMinor, paymentMethodId, startedAt } = event.data;
      const attempt: CardRenewalAttempt = {
        attemptId,
        periodEndDate,
        amountMinor,
        paymentMethodId,
        startedAt,
        status: 'OPEN',
        paymentIntentId: null,
        failure: null,
        depositPaymentId: null,
      };
      return { ...state, cardRenewalAttempts: [...state.cardRenewalAttempts, attempt] };
    }
    case 'SubscriptionCardRenewalPending':
      return withAttempt(state, event.data.attemptId, {
        status: 'PENDING',
        paymentIntentId: event.data.paymentIntentId,
      });
    case 'SubscriptionCardRenewalFailed':
      return withAttempt(state, event.data.attemptId, {
        status: 'FAILED',
        failure: event.data.outcome,
        ...(event.data.paymentIntentId === null ? {} : { paymentIntentId: event.data.paymentIntentId }),
      });
    case 'SubscriptionCardRenewalSettled':
      return withAttempt(state, event.data.attemptId, {
        status: 'SETTLED',
        paymentIntentId: event.data.paymentIntentId,
        depositPaymentId: event.data.depositPaymentId,
      });
  }
}

function withAttempt(
  state: ExistingSubscription,
  attemptId: string,
  change: Partial<CardRenewalAttempt>,
): ExistingSubscription {
  return {
    ...state,
    cardRenewalAttempts: state.cardRenewalAttempts.map((attempt) =>
      attempt.attemptId === attemptId ? { ...attempt, ...change } : attempt,
    ),
  };
}
