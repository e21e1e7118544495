import type { LedgerAccount } from './accounts';
import type { CardProvider, CardProviderStatus, CardReportedMismatch } from './card';
import type { CashierProvider, CashierProviderStatus } from './cashier';
import type { BalanceFixAction, Currency, PaymentAggregator, PaymentMethod, PaymentStatus, PaymentType } from './enums';
import type { ErrorCode } from './errors';
import type { DepositPurchaseKind, IsoDateTime } from './payloads';

/**
 * Events of the ledger context (ADR 0006) with their payloads. `wallet-{userUuid}` streams hold every decision that
 * changes a user's balance; `payment-{paymentId}` streams hold a payment's lifecycle. Money is integer cents.
 */
export const LEDGER_EVENT_TYPES = Object.freeze({
  manualDepositRecorded: 'ManualDepositRecorded',
  withdrawalRecorded: 'WithdrawalRecorded',
  balanceCorrected: 'BalanceCorrected',
  transferSent: 'TransferSent',
  transferReceived: 'TransferReceived',
  paymentReversed: 'PaymentReversed',
  paymentReapplied: 'PaymentReapplied',
  ambassadorBonusCredited: 'AmbassadorBonusCredited',
  subscriptionCharged: 'SubscriptionCharged',
  subscriptionRefunded: 'SubscriptionRefunded',
  paymentRecorded: 'PaymentRecorded',
  paymentStatusChanged: 'PaymentStatusChanged',
  cashierDepositCredited: 'CashierDepositCredited',
  cashierInvoiceOpened: 'CashierInvoiceOpened',
  cashierPaymentReported: 'CashierPaymentReported',
  ambassadorBonusRaised: 'AmbassadorBonusRaised',
  depositPurchaseRequested: 'DepositPurchaseRequested',
  depositPurchaseCompleted: 'DepositPurchaseCompleted',
  depositPurchaseFailed: 'DepositPurchaseFailed',
  cardCheckoutOpened: 'CardCheckoutOpened',
  cardPaymentReported: 'CardPaymentReported',
  cardDepositCredited: 'CardDepositCredited',
  voucherRedeemed: 'VoucherRedeemed',
  paymentRefundedToBalance: 'PaymentRefundedToBalance',
  goodwillCredited: 'GoodwillCredited',
} as const);

export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[keyof typeof LEDGER_EVENT_TYPES];

export const WALLET_STREAM_PREFIX = 'wallet-';
export const PAYMENT_STREAM_PREFIX = 'payment-';

export function walletStreamId(userUuid: string): string {
  return `${WALLET_STREAM_PREFIX}${userUuid}`;
}

export function paymentStreamId(paymentId: number): string {
  return `${PAYMENT_STREAM_PREFIX}${paymentId}`;
}

/** Money moved from `source` to `destination`; the amount is positive, so a transaction sums to zero by construction. */
export interface Posting {
  source: LedgerAccount;
  destination: LedgerAccount;
  amountMinor: number;
}

/** One ledger transaction: booked once, by the event that carries it. */
export interface LedgerTransaction {
  transactionId: string;
  postings: Posting[];
}

/** A staff member recorded money received by manual transfer (`world:manual` → `user:{uuid}`). */
export interface ManualDepositRecordedData {
  userUuid: string;
  paymentId: number;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/** A staff member recorded money paid out to the user (`user:{uuid}` → `world:manual`). */
export interface WithdrawalRecordedData {
  userUuid: string;
  paymentId: number;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/** A staff balance fix against `expense:adjustment`, with its reason. Earns no bonus. */
export interface BalanceCorrectedData {
  userUuid: string;
  paymentId: number;
  action: BalanceFixAction;
  amountMinor: number;
  reason: string;
  transaction: LedgerTransaction;
}

/** On the sender's wallet: the whole transfer transaction (`user:{sender}` → `user:{recipient}`). */
export interface TransferSentData {
  userUuid: string;
  recipientUuid: string;
  transferId: string;
  outPaymentId: number;
  inPaymentId: number;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/** On the recipient's wallet: the credit of a transaction booked by the matching `TransferSent`. */
export interface TransferReceivedData {
  userUuid: string;
  senderUuid: string;
  transferId: string;
  outPaymentId: number;
  inPaymentId: number;
  amountMinor: number;
  transactionId: string;
}

/**
 * A manual payment's money taken off the books (SUCCESS → another status) or put back (→ SUCCESS) by a new
 * transaction. `overdraftConfirmedBy` names the staff member who confirmed a resulting negative balance.
 */
export interface PaymentMoneyMovedData {
  userUuid: string;
  paymentId: number;
  status: PaymentStatus;
  amountMinor: number;
  transaction: LedgerTransaction;
  overdraftConfirmedBy: string | null;
}

/**
 * An ambassador's real-money deposit earned a bonus (docs/product.md, Referrals and bonuses): `amountMinor` moves from
 * `expense:bonus` to `user:{uuid}` in the same append as the deposit. `paymentId` is the AMBASSADOR_BONUS payment,
 * `depositPaymentId` the deposit that earned it; `percent` is the tier the deposit reached when it was booked.
 */
export interface AmbassadorBonusCreditedData {
  userUuid: string;
  paymentId: number;
  depositPaymentId: number;
  depositAmountMinor: number;
  percent: number;
  amountMinor: number;
  transaction: LedgerTransaction;
}

export type PaymentReversedData = PaymentMoneyMovedData;

/** A subscription's price taken from the balance (`user:{uuid}` → `revenue:subscriptions`): a purchase or a renewal. */
export interface SubscriptionChargedData {
  userUuid: string;
  paymentId: number;
  subscriptionId: string;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/** A subscription's price given back (`expense:refund` → `user:{uuid}`), when the streaming service refused it for good. */
export interface SubscriptionRefundedData {
  userUuid: string;
  paymentId: number;
  subscriptionId: string;
  amountMinor: number;
  transaction: LedgerTransaction;
}
export type PaymentReappliedData = PaymentMoneyMovedData;

/** A payment came into being; `counterAccount` is where the user's money comes from or goes to. */
export interface PaymentRecordedData {
  paymentId: number;
  userUuid: string;
  userEmail: string;
  type: PaymentType;
  method: PaymentMethod;
  aggregator: PaymentAggregator;
  status: PaymentStatus;
  amountMinor: number;
  currency: Currency;
  comment: string | null;
  /** What staff chose to tell the client; null when nothing (and on events stored before schema version 2). */
  publicNote: string | null;
  counterAccount: LedgerAccount;
  correction: boolean;
  transferId: string | null;
  senderProfileId: string | null;
  recipientProfileId: string | null;
  /** The referral discount a subscription payment got, in percent; 0 otherwise (and before schema version 3). */
  discountPercent: number;
  createdAt: IsoDateTime;
  /**
   * On a deposit that earned an ambassador bonus: the AMBASSADOR_BONUS payment booked with it. Absent or null
   * otherwise (payments recorded before bonuses existed have no such field, and mean null).
   */
  bonusPaymentId?: number | null;
  /** On an AMBASSADOR_BONUS payment: the deposit that earned it. Absent or null on every other payment. */
  bonusForPaymentId?: number | null;
}

export interface PaymentStatusChangedData {
  paymentId: number;
  userUuid: string;
  previousStatus: PaymentStatus;
  status: PaymentStatus;
  changedAt: IsoDateTime;
  /** What staff chose to tell the client about the change; null when nothing (and before schema version 2). */
  publicNote: string | null;
}

/**
 * On the client's wallet: money that arrived through the crypto cashier (`world:cashier` → `user:{uuid}`). One
 * provider payment may credit more than once (a partial payment, then the rest), each time only what is new.
 * The event a process manager waits for when something must happen once a deposit settles.
 */
export interface CashierDepositCreditedData {
  userUuid: string;
  paymentId: number;
  providerPaymentId: string;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/** On a deposit's payment stream, with its `PaymentRecorded`: the provider's invoice the client pays on. */
export interface CashierInvoiceOpenedData {
  paymentId: number;
  userUuid: string;
  provider: CashierProvider;
  invoiceId: string;
  invoiceUrl: string;
  payCurrency: string;
  amountAskedMinor: number;
  openedAt: IsoDateTime;
}

/**
 * What the provider said about one of its payments on our invoice, read back from its API (never from the IPN's
 * body), whenever it changes something: the provider's status, what arrived, or our status. `source` says whether
 * an IPN or the janitor asked.
 */
export interface CashierPaymentReportedData {
  paymentId: number;
  userUuid: string;
  source: 'IPN' | 'JANITOR';
  /** Null when the janitor times out an invoice on which no payment was ever reported. */
  providerPaymentId: string | null;
  providerStatus: CashierProviderStatus | null;
  /** The provider's amounts as it wrote them (crypto), kept for the record. */
  payAmount: string | null;
  actuallyPaid: string | null;
  /** Everything this provider payment brought, in cents at the invoice's rate, after this report. */
  receivedMinor: number;
  /** What this report credited (the growth of `receivedMinor`); zero when nothing new arrived. */
  creditedMinor: number;
  /** Everything every provider payment on the invoice brought, after this report: what the deposit credited. */
  amountReceivedMinor: number;
  previousStatus: PaymentStatus;
  status: PaymentStatus;
  reportedAt: IsoDateTime;
  /**
   * The AMBASSADOR_BONUS payment this report booked for the deposit, when it is the deposit's first bonus (ADR 0030).
   * Absent or null otherwise: reports stored before crypto bonuses, and every later report, leave the link as it is.
   */
  bonusPaymentId?: number | null;
  /**
   * Cents at the invoice's rate a report would have credited, held for staff instead because they took the deposit
   * above the per-payment maximum (ADR 0058): the report then credits nothing. Absent on every other report.
   */
  heldForReviewMinor?: number;
}

/**
 * On an AMBASSADOR_BONUS payment of a crypto deposit that arrived in parts: the deposit's total so far reached a bonus
 * larger than the one booked, and `addedMinor` more was credited (the wallet's `AmbassadorBonusCredited` of the same
 * append). `amountMinor` is the bonus after the raise, `percent` the tier `depositAmountMinor` reaches.
 */
export interface AmbassadorBonusRaisedData {
  paymentId: number;
  userUuid: string;
  depositPaymentId: number;
  depositAmountMinor: number;
  percent: number;
  addedMinor: number;
  amountMinor: number;
  raisedAt: IsoDateTime;
}

/**
 * On a crypto deposit's payment stream, with its `PaymentRecorded` and `CashierInvoiceOpened`: the deposit pays for a
 * package (BUY) or a renewal (RENEW) that the `deposit-purchases` processor runs once the money arrives (ADR 0030).
 * `subscriptionId` is the renewed subscription, or the id a bought one will take. `priceMinor` is the price the client
 * was quoted (after the referral discount): a higher price when the money arrives fails the purchase. The
 * streaming-service password of a purchase never appears here: it waits in `subscription_secrets`.
 */
export interface DepositPurchaseRequestedData {
  paymentId: number;
  userUuid: string;
  kind: DepositPurchaseKind;
  paymentPlanId: string;
  planName: string;
  subscriptionId: string;
  /** BUY: the login at the streaming service; null for RENEW. */
  login: string | null;
  priceMinor: number;
  discountPercent: number;
  requestedAt: IsoDateTime;
}

/** The purchase a deposit paid for happened: the subscription bought or renewed, and its SUBSCRIPTION_PAYMENT. */
export interface DepositPurchaseCompletedData {
  paymentId: number;
  userUuid: string;
  kind: DepositPurchaseKind;
  subscriptionId: string;
  subscriptionPaymentId: number;
  chargedMinor: number;
  completedAt: IsoDateTime;
}

/**
 * The money arrived but the purchase could not follow (`errorCode`: the package is no longer available or costs
 * more, the balance is short after a partial payment, the login is taken, the renewal's own rules). The money stays
 * on the balance; `amountReceivedMinor` is what the deposit had brought.
 */
export interface DepositPurchaseFailedData {
  paymentId: number;
  userUuid: string;
  kind: DepositPurchaseKind;
  errorCode: ErrorCode;
  amountReceivedMinor: number;
  failedAt: IsoDateTime;
}

/**
 * On a card deposit's payment stream, with its `PaymentRecorded` and `DepositPurchaseRequested`: the provider's hosted
 * checkout the client pays on (docs/adr/0029-card-checkout.md).
 */
export interface CardCheckoutOpenedData {
  paymentId: number;
  userUuid: string;
  /** Who holds the checkout: `STRIPE`, or `SANDBOX` for the sandbox card, whose money nobody paid (ADR 0080). */
  provider: CardProvider;
  checkoutSessionId: string;
  checkoutUrl: string;
  amountAskedMinor: number;
  openedAt: IsoDateTime;
}

/**
 * What the card provider said about the checkout, read back from its API after a signed webhook, whenever it changes
 * something. `providerEventId` is the webhook's event id: a report of an event already applied decides nothing.
 */
export interface CardPaymentReportedData {
  paymentId: number;
  userUuid: string;
  providerEventId: string;
  providerEventType: string;
  /** The provider's payment (Stripe's payment intent); null while it has none. */
  providerPaymentId: string | null;
  providerStatus: CardProviderStatus;
  /** What this report credited, in cents; zero when it credited nothing. */
  creditedMinor: number;
  /** What the checkout brought in all, after this report. */
  amountReceivedMinor: number;
  previousStatus: PaymentStatus;
  status: PaymentStatus;
  reportedAt: IsoDateTime;
  /** The AMBASSADOR_BONUS payment the crediting report booked for an ambassador's card deposit; absent otherwise. */
  bonusPaymentId?: number | null;
  /**
   * A paid checkout whose currency or total differed from what was asked (ADR 0058): what the provider reported. The
   * report then credits nothing and its status is `REVIEW`. Absent on every other report.
   */
  mismatch?: CardReportedMismatch;
}

/**
 * On the client's wallet: money that arrived through the card provider (`world:stripe` → `user:{uuid}`, or
 * `world:sandbox-card` for a checkout the sandbox card holds: money nobody paid, ADR 0080), once per checkout, in the
 * same append as the purchase it paid for (or the purchase's failure).
 */
export interface CardDepositCreditedData {
  userUuid: string;
  paymentId: number;
  providerPaymentId: string;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/**
 * On the client's wallet: a voucher's money, from `liability:vouchers` to `user:{uuid}` (ADR 0089), in the same
 * append as its batch's `VoucherCodeRedeemed` and the DEPOSIT payment (method VOUCHER) the client sees.
 */
export interface VoucherRedeemedData {
  userUuid: string;
  paymentId: number;
  batchId: string;
  codeIndex: number;
  amountMinor: number;
  transaction: LedgerTransaction;
}

/**
 * On a SUBSCRIPTION_PAYMENT's own stream: staff gave its money back to the balance (ADR 0092), as the REFUND payment
 * `refundPaymentId` (`revenue:subscriptions` → `user:{uuid}`, booked by the wallet's `SubscriptionRefunded` in the
 * same append). A payment is refunded at most once; the payment itself stays SUCCESS, its money moved by the refund.
 * `endedSubscription`: the subscription was ended at once with the refund (else it runs to its end date).
 */
export interface PaymentRefundedToBalanceData {
  paymentId: number;
  userUuid: string;
  refundPaymentId: number;
  subscriptionId: string;
  amountMinor: number;
  reason: string;
  endedSubscription: boolean;
  refundedAt: IsoDateTime;
}

/**
 * On the client's wallet: a goodwill credit of a bulk operation (ADR 0090), from `expense:goodwill` to `user:{uuid}`,
 * with the DEPOSIT payment (method MANUAL_TRANSFER, its reason and public note) the client sees.
 */
export interface GoodwillCreditedData {
  userUuid: string;
  paymentId: number;
  batchId: string;
  amountMinor: number;
  reason: string;
  transaction: LedgerTransaction;
}

export interface LedgerEventDataByType {
  ManualDepositRecorded: ManualDepositRecordedData;
  WithdrawalRecorded: WithdrawalRecordedData;
  BalanceCorrected: BalanceCorrectedData;
  TransferSent: TransferSentData;
  TransferReceived: TransferReceivedData;
  PaymentReversed: PaymentReversedData;
  PaymentReapplied: PaymentReappliedData;
  AmbassadorBonusCredited: AmbassadorBonusCreditedData;
  SubscriptionCharged: SubscriptionChargedData;
  SubscriptionRefunded: SubscriptionRefundedData;
  PaymentRecorded: PaymentRecordedData;
  PaymentStatusChanged: PaymentStatusChangedData;
  CashierDepositCredited: CashierDepositCreditedData;
  CashierInvoiceOpened: CashierInvoiceOpenedData;
  CashierPaymentReported: CashierPaymentReportedData;
  AmbassadorBonusRaised: AmbassadorBonusRaisedData;
  DepositPurchaseRequested: DepositPurchaseRequestedData;
  DepositPurchaseCompleted: DepositPurchaseCompletedData;
  DepositPurchaseFailed: DepositPurchaseFailedData;
  CardCheckoutOpened: CardCheckoutOpenedData;
  CardPaymentReported: CardPaymentReportedData;
  CardDepositCredited: CardDepositCreditedData;
  VoucherRedeemed: VoucherRedeemedData;
  PaymentRefundedToBalance: PaymentRefundedToBalanceData;
  GoodwillCredited: GoodwillCreditedData;
}

/** One ledger event as a tagged union: `{type, data}`, the shape the event store appends. */
export type LedgerEvent = {
  [Type in LedgerEventType]: { type: Type; data: LedgerEventDataByType[Type] };
}[LedgerEventType];

export type PaymentEventType =
  | 'PaymentRecorded'
  | 'PaymentStatusChanged'
  | 'CashierInvoiceOpened'
  | 'CashierPaymentReported'
  | 'AmbassadorBonusRaised'
  | 'DepositPurchaseRequested'
  | 'DepositPurchaseCompleted'
  | 'DepositPurchaseFailed'
  | 'CardCheckoutOpened'
  | 'CardPaymentReported'
  | 'PaymentRefundedToBalance';
export type WalletEventType = Exclude<LedgerEventType, PaymentEventType>;
export type WalletEvent = Extract<LedgerEvent, { type: WalletEventType }>;
export type PaymentEvent = Extract<LedgerEvent, { type: PaymentEventType }>;
