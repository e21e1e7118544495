import type { LedgerAccount } from './accounts';
import type { CashierProvider, CashierProviderStatus } from './cashier';
import type { BalanceFixAction, Currency, PaymentAggregator, PaymentMethod, PaymentStatus, PaymentType } from './enums';
import type { IsoDateTime } from './payloads';

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
}

/** One ledger event as a tagged union: `{type, data}`, the shape the event store appends. */
export type LedgerEvent = {
  [Type in LedgerEventType]: { type: Type; data: LedgerEventDataByType[Type] };
}[LedgerEventType];

export type PaymentEventType =
  'PaymentRecorded' | 'PaymentStatusChanged' | 'CashierInvoiceOpened' | 'CashierPaymentReported';
export type WalletEventType = Exclude<LedgerEventType, PaymentEventType>;
export type WalletEvent = Extract<LedgerEvent, { type: WalletEventType }>;
export type PaymentEvent = Extract<LedgerEvent, { type: PaymentEventType }>;
