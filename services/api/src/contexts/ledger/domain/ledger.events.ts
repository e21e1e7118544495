export {
  LEDGER_EVENT_TYPES,
  type LedgerEvent,
  type LedgerEventDataByType,
  type LedgerEventType,
  type LedgerTransaction,
  type PaymentEvent,
  type Posting,
  type WalletEvent,
  type WalletEventType,
  paymentStreamId,
  walletStreamId,
  PAYMENT_STREAM_PREFIX,
  WALLET_STREAM_PREFIX,
} from '@kupa/proto';
import { LEDGER_EVENT_TYPES, type LedgerEventType, type WalletEventType } from '@kupa/proto';

/** Every ledger event type, for the event type registry, the projections and the audit mappers. */
export const ALL_LEDGER_EVENT_TYPES: readonly LedgerEventType[] = Object.freeze(Object.values(LEDGER_EVENT_TYPES));

export const PAYMENT_EVENT_TYPES: readonly LedgerEventType[] = Object.freeze([
  'PaymentRecorded',
  'PaymentStatusChanged',
  'CashierInvoiceOpened',
  'CashierPaymentReported',
  'AmbassadorBonusRaised',
  'DepositPurchaseRequested',
  'DepositPurchaseCompleted',
  'DepositPurchaseFailed',
  'CardCheckoutOpened',
  'CardPaymentReported',
  'PaymentRefundedToBalance',
]);

export const WALLET_EVENT_TYPES: readonly WalletEventType[] = Object.freeze(
  ALL_LEDGER_EVENT_TYPES.filter((type): type is WalletEventType => !PAYMENT_EVENT_TYPES.includes(type)),
);
