import {
  type CashierInvoiceOpenedData,
  type CashierPaymentReportedData,
  minorToAmount,
  type PaymentRecordedData,
  type PaymentStatusChangedData,
} from '@kupa/proto';
import type { AuditMapper } from '../audit';
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

const paymentStatusChanged: AuditMapper = (event: RecordedEvent) => {
  const data = event.data as PaymentStatusChangedData;
  return {
    targetType: 'PAYMENT',
    targetId: String(data.paymentId),
    parent: { type: 'CLIENT', id: data.userUuid },
    operationType: 'UPDATED',
    fields: { status: data.status, ...publicNoteField(data.publicNote) },
  };
};

const cashierInvoiceOpened: AuditMapper = (event: RecordedEvent) => {
  const data = event.data as CashierInvoiceOpenedData;
  return {
    targetType: 'PAYMENT',
    targetId: String(data.paymentId),
    parent: { type: 'CLIENT', id: data.userUuid },
    operationType: 'UPDATED',
    fields: {
      provider: data.provider,
      invoiceId: data.invoiceId,
      payCurrency: data.payCurrency,
      amountAsked: minorToAmount(data.amountAskedMinor),
    },
  };
};

/** A report names only what it changed: the status, the provider's side, and the amounts once money arrived. */
const cashierPaymentReported: AuditMapper = (event: RecordedEvent) => {
  const data = event.data as CashierPaymentReportedData;
  const credited = data.creditedMinor > 0;
  return {
    targetType: 'PAYMENT',
    targetId: String(data.paymentId),
    parent: { type: 'CLIENT', id: data.userUuid },
    operationType: 'UPDATED',
    fields: {
      status: data.status,
      ...(data.providerPaymentId !== null ? { providerPaymentId: data.providerPaymentId } : {}),
      ...(data.providerStatus !== null ? { providerStatus: data.providerStatus } : {}),
      ...(credited
        ? { amountReceived: minorToAmount(data.amountReceivedMinor), amount: minorToAmount(data.amountReceivedMinor) }
        : {}),
    },
  };
};

const PAYMENT_STREAM_MAPPERS: Partial<Record<LedgerEventType, AuditMapper>> = {
  PaymentRecorded: paymentRecorded,
  PaymentStatusChanged: paymentStatusChanged,
  CashierInvoiceOpened: cashierInvoiceOpened,
  CashierPaymentReported: cashierPaymentReported,
};

/** Wallet events move the money a payment entry already describes; listing them too would say everything twice. */
const explainedByItsPayment: AuditMapper = () => null;

/** How each ledger event reads in the activity log: the payment it creates or changes, under its client. */
export const LEDGER_AUDIT_MAPPERS: Readonly<Record<LedgerEventType, AuditMapper>> = Object.freeze(
  Object.fromEntries(
    ALL_LEDGER_EVENT_TYPES.map((type) => [type, PAYMENT_STREAM_MAPPERS[type] ?? explainedByItsPayment]),
  ) as Record<LedgerEventType, AuditMapper>,
);
