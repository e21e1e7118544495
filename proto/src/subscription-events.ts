import type {
  CardRenewalFailure,
  Currency,
  RenewalFunding,
  SubscriptionExtensionSource,
  SubscriptionStatus,
  SubscriptionType,
} from './enums';
import type { IsoDateTime } from './payloads';
import type { RenewalFundingChangeReason } from './saved-cards';

/**
 * Events of the subscriptions context (stream `subscription-{uuid}`, one per subscription), with their payloads.
 * Money is integer cents. No event ever holds the streaming-service password: it lives in the side table
 * `subscription_secrets`, written in the same transaction as the event that explains it (docs/adr/0024-subscriptions.md).
 * Every payload names its owner (`userUuid`), so the activity log files each entry under its client.
 */
export const SUBSCRIPTION_EVENT_TYPES = Object.freeze({
  purchased: 'SubscriptionPurchased',
  activated: 'SubscriptionActivated',
  renewed: 'SubscriptionRenewed',
  renewalFailed: 'SubscriptionRenewalFailed',
  cancelled: 'SubscriptionCancelled',
  resumed: 'SubscriptionResumed',
  recurrenceDeactivated: 'SubscriptionRecurrenceDeactivated',
  ended: 'SubscriptionEnded',
  loginChanged: 'SubscriptionLoginChanged',
  passwordChanged: 'SubscriptionPasswordChanged',
  provisioningFailed: 'SubscriptionProvisioningFailed',
  lapsed: 'SubscriptionLapsed',
  renewalFundingChanged: 'SubscriptionRenewalFundingChanged',
  cardRenewalStarted: 'SubscriptionCardRenewalStarted',
  cardRenewalPending: 'SubscriptionCardRenewalPending',
  cardRenewalFailed: 'SubscriptionCardRenewalFailed',
  cardRenewalSettled: 'SubscriptionCardRenewalSettled',
  extended: 'SubscriptionExtended',
} as const);

export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[keyof typeof SUBSCRIPTION_EVENT_TYPES];

export const SUBSCRIPTION_STREAM_PREFIX = 'subscription-';

export function subscriptionStreamId(subscriptionId: string): string {
  return `${SUBSCRIPTION_STREAM_PREFIX}${subscriptionId}`;
}

/** Bought with the balance (REGULAR, `paymentId` the SUBSCRIPTION_PAYMENT) or taken as the trial (no payment). PENDING. */
export interface SubscriptionPurchasedData {
  subscriptionId: string;
  userUuid: string;
  userEmail: string;
  type: SubscriptionType;
  /** The package bought; null for a trial. */
  planId: string | null;
  planName: string | null;
  /** Calendar months of one period; 0 for a trial, which lasts `trialDays`. */
  durationInMonths: number;
  trialDays: number | null;
  /** What was charged, after the referral discount; 0 for a trial. */
  priceMinor: number;
  /** The package's price before the discount. */
  listPriceMinor: number;
  discountPercent: number;
  currency: Currency;
  isRecurrent: boolean;
  login: string;
  paymentId: number | null;
  purchasedAt: IsoDateTime;
  /**
   * A subscription started by a day voucher's code (ADR 0089): which code of which batch, and its days, which make the
   * first period instead of `durationInMonths`; nothing was charged (`priceMinor` 0, `paymentId` null). Absent or null
   * for every other purchase.
   */
  voucher?: SubscriptionVoucherOrigin | null;
}

/** The day voucher code a subscription was started with: batch, 0-based code index, days and the batch's label. */
export interface SubscriptionVoucherOrigin {
  batchId: string;
  codeIndex: number;
  days: number;
  label: string;
}

/**
 * The streaming service holds the account: the first period starts. → ACTIVE (UNSUBSCRIBED if deactivated before).
 * `startDate` is the purchase when the account came within minutes with the end already as its expiry (`periodFrom`
 * `PURCHASE`, ADR 0136), else `activatedAt`.
 */
export interface SubscriptionActivatedData {
  subscriptionId: string;
  userUuid: string;
  startDate: IsoDateTime;
  endDate: IsoDateTime;
  activatedAt: IsoDateTime;
  /**
   * Where the period counts from (ADR 0136): `PURCHASE` when the account was created with `endDate` as its expiry, so
   * no job sets it again; `ACTIVATION` otherwise. Absent in events before ADR 0136, which all counted from the
   * activation.
   */
  periodFrom?: 'PURCHASE' | 'ACTIVATION';
}

/** One more period paid from the balance: `endDate` = max(renewedAt, previousEndDate) + the duration. */
export interface SubscriptionRenewedData {
  subscriptionId: string;
  userUuid: string;
  paymentId: number;
  priceMinor: number;
  listPriceMinor: number;
  discountPercent: number;
  previousEndDate: IsoDateTime;
  endDate: IsoDateTime;
  renewedAt: IsoDateTime;
  /** True when the renewal sweep charged it, false when the owner asked. */
  automatic: boolean;
}

/**
 * Days added to a running subscription without a payment (ADR 0089): by staff, by a bulk operation or by a day
 * voucher its owner redeemed. `endDate` = max(previousEndDate, extendedAt) + `days`: one in GRACE gets its days from
 * now and is ACTIVE again. `idempotencyKey` makes a repeated request (a resumed bulk batch, a retried redemption)
 * add nothing the second time.
 */
export interface SubscriptionExtendedData {
  subscriptionId: string;
  userUuid: string;
  days: number;
  /** Why, in the words the client is shown; a day voucher's batch label. */
  reason: string;
  source: SubscriptionExtensionSource;
  /** Who asked: the staff member, or the client who redeemed the voucher. */
  actorId: string;
  /** The bulk operation that extended it (BULK). */
  batchId: string | null;
  /** The day voucher batch whose code was redeemed (VOUCHER). */
  voucherBatchId: string | null;
  idempotencyKey: string;
  previousEndDate: IsoDateTime;
  endDate: IsoDateTime;
  extendedAt: IsoDateTime;
}

/** The automatic renewal found the balance short by `missingMinor`; it tries again at `nextAttemptAt`. */
export interface SubscriptionRenewalFailedData {
  subscriptionId: string;
  userUuid: string;
  missingMinor: number;
  attemptedAt: IsoDateTime;
  nextAttemptAt: IsoDateTime;
}

/** Cancelled by its owner or staff: stays as it is to its end date, never renews, then ends CANCELED. */
export interface SubscriptionCancelledData {
  subscriptionId: string;
  userUuid: string;
  cancelledAt: IsoDateTime;
}

/**
 * A cancellation withdrawn before the end date, by the owner or staff: the subscription runs on as before it was
 * cancelled, renewing by itself again if its package is recurrent and its renewal was not stopped (ADR 0076).
 */
export interface SubscriptionResumedData {
  subscriptionId: string;
  userUuid: string;
  resumedAt: IsoDateTime;
}

/** The automatic renewal is switched off for good: → UNSUBSCRIBED, access to the end date, never charged again. */
export interface SubscriptionRecurrenceDeactivatedData {
  subscriptionId: string;
  userUuid: string;
  deactivatedAt: IsoDateTime;
}

/** The end date passed: EXPIRED, or CANCELED when it was cancelled (or its provisioning failed for good). */
export interface SubscriptionEndedData {
  subscriptionId: string;
  userUuid: string;
  status: Extract<SubscriptionStatus, 'EXPIRED' | 'CANCELED'>;
  endedAt: IsoDateTime;
}

export interface SubscriptionLoginChangedData {
  subscriptionId: string;
  userUuid: string;
  previousLogin: string;
  login: string;
}

/** A new password waits in `subscription_secrets` under the stream version of this event; the event holds none. */
export interface SubscriptionPasswordChangedData {
  subscriptionId: string;
  userUuid: string;
  changedAt: IsoDateTime;
}

/** The streaming service refused the account for good: → CANCELED, the payment refunded by `refundPaymentId`. */
export interface SubscriptionProvisioningFailedData {
  subscriptionId: string;
  userUuid: string;
  reason: string;
  refundPaymentId: number | null;
  failedAt: IsoDateTime;
}

/**
 * The end date of a subscription that renews by itself passed unpaid: → GRACE (ADR 0081). The account is disabled,
 * the login stays reserved, and renewing until `graceEndsAt` brings it back ACTIVE with a period from the payment;
 * after that it ends EXPIRED. `graceEndsAt` is the end date plus RENEWAL_GRACE_DAYS as configured when it lapsed.
 */
export interface SubscriptionLapsedData {
  subscriptionId: string;
  userUuid: string;
  /** The end date of the period that was not paid for. */
  endDate: IsoDateTime;
  graceEndsAt: IsoDateTime;
  lapsedAt: IsoDateTime;
  /**
   * What the balance lacked at the lapse for the renewal (the price as bought less the owner's referral discount,
   * minus the balance), zero when it covered it: what the grace-started reminder tells, however late it is sent.
   * Absent on lapses recorded before it was (issue 31); readers then count it from the balance they see.
   */
  missingMinor?: number;
}

/**
 * How the automatic renewal is paid from now on (docs/adr/0085-saved-cards.md): chosen by the owner, or back to the
 * balance because the saved card was removed.
 */
export interface SubscriptionRenewalFundingChangedData {
  subscriptionId: string;
  userUuid: string;
  funding: RenewalFunding;
  previousFunding: RenewalFunding;
  reason: RenewalFundingChangeReason;
  changedAt: IsoDateTime;
}

/**
 * The renewal sweep is about to charge the saved card off-session for the period ending `periodEndDate`
 * (docs/adr/0086-renewals-charged-to-the-saved-card.md). Recorded before the provider is asked: the attempt's id is
 * in the provider's idempotency key (`kupa-renewal-{subscriptionId}-{attemptId}`), so every retry of this attempt is
 * the same charge. At most one attempt is open per subscription, and one per period and card.
 */
export interface SubscriptionCardRenewalStartedData {
  subscriptionId: string;
  userUuid: string;
  attemptId: string;
  /** The end date of the period this attempt pays the next one after. */
  periodEndDate: IsoDateTime;
  amountMinor: number;
  paymentMethodId: string;
  startedAt: IsoDateTime;
}

/** The provider is still processing the attempt's payment (`processing`): its webhook, or the janitor, concludes it. */
export interface SubscriptionCardRenewalPendingData {
  subscriptionId: string;
  userUuid: string;
  attemptId: string;
  paymentIntentId: string;
  pendingAt: IsoDateTime;
}

/**
 * The attempt ended without money: the bank declined, wanted its holder (`REQUIRES_ACTION`), or no outcome came
 * within the provider's idempotency window (`ABANDONED`, never sent again). The card is not charged again for that
 * period.
 */
export interface SubscriptionCardRenewalFailedData {
  subscriptionId: string;
  userUuid: string;
  attemptId: string;
  outcome: CardRenewalFailure;
  /** The provider's code (`card_declined`, `authentication_required`), or `abandoned`. */
  code: string;
  declineCode: string | null;
  paymentIntentId: string | null;
  failedAt: IsoDateTime;
}

/** The attempt's money arrived: booked as the card deposit `depositPaymentId` in the same append. */
export interface SubscriptionCardRenewalSettledData {
  subscriptionId: string;
  userUuid: string;
  attemptId: string;
  paymentIntentId: string;
  depositPaymentId: number;
  settledAt: IsoDateTime;
}

export interface SubscriptionEventDataByType {
  SubscriptionPurchased: SubscriptionPurchasedData;
  SubscriptionActivated: SubscriptionActivatedData;
  SubscriptionRenewed: SubscriptionRenewedData;
  SubscriptionRenewalFailed: SubscriptionRenewalFailedData;
  SubscriptionCancelled: SubscriptionCancelledData;
  SubscriptionResumed: SubscriptionResumedData;
  SubscriptionRecurrenceDeactivated: SubscriptionRecurrenceDeactivatedData;
  SubscriptionEnded: SubscriptionEndedData;
  SubscriptionLoginChanged: SubscriptionLoginChangedData;
  SubscriptionPasswordChanged: SubscriptionPasswordChangedData;
  SubscriptionProvisioningFailed: SubscriptionProvisioningFailedData;
  SubscriptionLapsed: SubscriptionLapsedData;
  SubscriptionRenewalFundingChanged: SubscriptionRenewalFundingChangedData;
  SubscriptionCardRenewalStarted: SubscriptionCardRenewalStartedData;
  SubscriptionCardRenewalPending: SubscriptionCardRenewalPendingData;
  SubscriptionCardRenewalFailed: SubscriptionCardRenewalFailedData;
  SubscriptionCardRenewalSettled: SubscriptionCardRenewalSettledData;
  SubscriptionExtended: SubscriptionExtendedData;
}

/** One subscription event as a tagged union: `{type, data}`, the shape the event store appends. */
export type SubscriptionEvent = {
  [Type in SubscriptionEventType]: { type: Type; data: SubscriptionEventDataByType[Type] };
}[SubscriptionEventType];
