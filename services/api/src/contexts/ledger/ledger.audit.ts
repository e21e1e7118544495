import {
  type AmbassadorBonusRaisedData,
  type CardCheckoutOpenedData,
  type CardPaymentReportedData,
  type CashierInvoiceOpenedData,
  type CashierPaymentReportedData,
  type DepositPurchaseCompletedData,
  type DepositPurchaseFailedData,
  type DepositPurchaseRequestedData,
  minorToAmount,
  type PaymentRecordedData,
  type PaymentRefundedToBalanceData,
  type PaymentStatusChangedData,
} from '@kupa/proto';
import { type AuditMapper, keptOutOfTheLog } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { ALL_LEDGER_EVENT_TYPES, type LedgerEventType } from './domain/ledger.events';

/**
 * The note staff wrote for the client, when there is one. Events without one add no field, so the entries of events
 * stored before notes existed stay what a replay of them makes.
 */
function publicNoteField(publicNote: string | null): { publicNote?: string } {
  return publicNote === null ? {} : { publicNote };
}

const paymentRecorded: AuditMapper = (event: RecordedEvent) => {
  const data = event.data as PaymentRecordedData;
  return {
    targetType: 'PAYMENT',
    targetId: String(data.paymentId),
    parent: { type: 'CLIENT', id: data.userUuid },
    operationType: 'CREATED',
    fields: {
      status: data.status,
      amount: minorToAmount(data.amountMinor),
      type: data.type,
      method: data.method,
      aggregator: data.aggregator,
      comment: data.comment,
      ...publicNoteField(data.publicNote),
      // Only a bonus carries it, so the entries of every other payment stay what a replay of them makes.
      ...(data.bonusForPaymentId ? { bonusForPaymentId: `#${data.bonusForPaymentId}` } : {}),
      // Only a discounted subscription payment says so: other entries stay what their events always made.
      ...(data.discountPercent > 0 ? { discountPercent: data.discountPercent } : {}),
    },
  };
};

/**
 * A mapper for an event that changes a payment: every such entry is the payment under its client, UPDATED, with the
 * fields the event sets.
 */
function paymentUpdated<Data extends { paymentId: number; userUuid: string }>(
  fieldsOf: (data: Data) => Record<string, unknown>,
): AuditMapper {
  return (event: RecordedEvent) => {
    const data = event.data as Data;
    return {
      targetType: 'PAYMENT',
      targetId: String(data.paymentId),
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: fieldsOf(data),
    };
  };
}

/** What a provider's report (cashier or card) adds once money arrived: the amounts, and the bonus it booked. */
function arrivedMoneyFields(data: {
  creditedMinor: number;
  amountReceivedMinor: number;
  bonusPaymentId?: number | null;
}): Record<string, unknown> {
  return {
    ...(data.creditedMinor > 0
      ? { amountReceived: minorToAmount(data.amountReceivedMinor), amount: minorToAmount(data.amountReceivedMinor) }
      : {}),
    ...(data.bonusPaymentId ? { bonusPaymentId: `#${data.bonusPaymentId}` } : {}),
  };
}

const paymentStatusChanged = paymentUpdated((data: PaymentStatusChangedData) => ({
  status: data.status,
  ...publicNoteField(data.publicNote),
}));

const cashierInvoiceOpened = paymentUpdated((data: CashierInvoiceOpenedData) => ({
  provider: data.provider,
  invoiceId: data.invoiceId,
  payCurrency: data.payCurrency,
  amountAsked: minorToAmount(data.amountAskedMinor),
}));

/** A report names only what it changed: the status, the provider's side, and the amounts once money arrived. */
const cashierPaymentReported = paymentUpdated((data: CashierPaymentReportedData) => ({
  status: data.status,
  ...(data.providerPaymentId !== null ? { providerPaymentId: data.providerPaymentId } : {}),
  ...(data.providerStatus !== null ? { providerStatus: data.providerStatus } : {}),
  ...arrivedMoneyFields(data),
}));

const ambassadorBonusRaised = paymentUpdated((data: AmbassadorBonusRaisedData) => ({
  amount: minorToAmount(data.amountMinor),
}));

/** The purchase a deposit pays for: what and at which price; the login stays on the subscription's own entries. */
const depositPurchaseRequested = paymentUpdated((data: DepositPurchaseRequestedData) => ({
  purchaseKind: data.kind,
  purchasePlan: data.planName,
  purchasePrice: minorToAmount(data.priceMinor),
  purchaseStatus: 'WAITING',
}));

const depositPurchaseCompleted = paymentUpdated((data: DepositPurchaseCompletedData) => ({
  purchaseStatus: 'DONE',
  purchaseSubscriptionId: data.subscriptionId,
}));

const depositPurchaseFailed = paymentUpdated((data: DepositPurchaseFailedData) => ({
  purchaseStatus: 'FAILED',
  purchaseError: data.errorCode,
}));

const cardCheckoutOpened = paymentUpdated((data: CardCheckoutOpenedData) => ({
  provider: data.provider,
  checkoutSessionId: data.checkoutSessionId,
  amountAsked: minorToAmount(data.amountAskedMinor),
}));

/** A card report names what it changed: the status, the provider's side, and the amounts once money arrived. */
const cardPaymentReported = paymentUpdated((data: CardPaymentReportedData) => ({
  status: data.status,
  ...(data.providerPaymentId !== null ? { providerPaymentId: data.providerPaymentId } : {}),
  providerStatus: data.providerStatus,
  ...arrivedMoneyFields(data),
}));

/** A subscription payment given back to the balance: how much, as which REFUND, why, and whether it ended now. */
const paymentRefundedToBalance = paymentUpdated((data: PaymentRefundedToBalanceData) => ({
  refundedAmount: minorToAmount(data.amountMinor),
  refundPaymentId: `#${data.refundPaymentId}`,
  refundReason: data.reason,
  refundEndedSubscription: data.endedSubscription,
}));

const PAYMENT_STREAM_MAPPERS: Partial<Record<LedgerEventType, AuditMapper>> = {
  PaymentRecorded: paymentRecorded,
  PaymentStatusChanged: paymentStatusChanged,
  CashierInvoiceOpened: cashierInvoiceOpened,
  CashierPaymentReported: cashierPaymentReported,
  AmbassadorBonusRaised: ambassadorBonusRaised,
  DepositPurchaseRequested: depositPurchaseRequested,
  DepositPurchaseCompleted: depositPurchaseCompleted,
  DepositPurchaseFailed: depositPurchaseFailed,
  CardCheckoutOpened: cardCheckoutOpened,
  CardPaymentReported: cardPaymentReported,
  PaymentRefundedToBalance: paymentRefundedToBalance,
};

/**
 * How each ledger event reads in the activity log: the payment it creates or changes, under its client. Wallet events
 * are kept out: they move the money a payment entry already describes, and listing them too would say everything
 * twice.
 */
export const LEDGER_AUDIT_MAPPERS: Readonly<Record<LedgerEventType, AuditMapper>> = Object.freeze(
  Object.fromEntries(
    ALL_LEDGER_EVENT_TYPES.map((type) => [type, PAYMENT_STREAM_MAPPERS[type] ?? keptOutOfTheLog]),
  ) as Record<LedgerEventType, AuditMapper>,
);
