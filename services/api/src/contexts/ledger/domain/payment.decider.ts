import {
  CASHIER_STATUS_MAPPING,
  type CashierInvoiceOpenedData,
  type CashierPaymentReportedData,
  type CashierProviderStatus,
  type PaymentRecordedData,
  type PaymentStatus,
  receivedMinorAtInvoiceRate,
} from '@kupa/proto';
import { assert, type Decider, DomainError } from '../../../kernel';
import type { PaymentEvent } from './ledger.events';
import type { PaymentCashierState, PaymentState } from './payment.state';

/** A provider payment as the provider's API described it when we asked (never an IPN's body). */
export interface CashierReport {
  providerPaymentId: string;
  providerStatus: CashierProviderStatus;
  /** The crypto amount the invoice asked for and the amount that arrived, as the provider wrote them. */
  payAmount: string;
  actuallyPaid: string;
}

export type PaymentCommand =
  | { type: 'RecordPayment'; payment: PaymentRecordedData }
  | {
      type: 'ChangePaymentStatus';
      paymentId: number;
      status: PaymentStatus;
      changedAt: string;
      /** What staff tell the client about the change; null for nothing. */
      publicNote: string | null;
    }
  | {
      /**
       * An ambassador bonus takes its deposit's status (docs/product.md, Referrals and bonuses): staff never change a
       * bonus by itself, only the deposit that earned it.
       */
      type: 'FollowDepositStatus';
      depositPaymentId: number;
      status: PaymentStatus;
      changedAt: string;
    }
  | { type: 'OpenCashierDeposit'; payment: PaymentRecordedData; invoice: CashierInvoiceOpenedData }
  | {
      /**
       * What the provider says now about a payment on the deposit's invoice; null when the janitor has none to ask
       * about. `timeOutIfPending` (the janitor, past the window) turns a deposit still PENDING after the report into
       * TIMEOUT.
       */
      type: 'ApplyCashierReport';
      paymentId: number;
      report: CashierReport | null;
      source: CashierPaymentReportedData['source'];
      reportedAt: string;
      timeOutIfPending: boolean;
    };

/**
 * A payment's money is on the books exactly while its status is SUCCESS. Leaving SUCCESS reverses it with a new
 * transaction; reaching SUCCESS again books it again; every other change moves no money.
 */
export function moneyEffectOf(previous: PaymentStatus, next: PaymentStatus): 'REVERSE' | 'REAPPLY' | null {
  if (previous === next) return null;
  if (previous === 'SUCCESS') return 'REVERSE';
  if (next === 'SUCCESS') return 'REAPPLY';
  return null;
}

/**
 * Our status after a report (docs/adr/0028-crypto-cashier.md): SUCCESS as soon as anything was credited, for good;
 * otherwise a PENDING deposit follows the provider's mapped status (a crediting status with nothing received yet
 * stays PENDING), and a deposit that already left PENDING without money keeps its status.
 */
function statusAfterReport(
  state: PaymentState,
  report: CashierReport | null,
  amountReceivedMinor: number,
  timeOutIfPending: boolean,
): PaymentStatus {
  let status: PaymentStatus = state.status;
  if (amountReceivedMinor > 0) status = 'SUCCESS';
  else if (state.status === 'PENDING' && report) {
    const mapped = CASHIER_STATUS_MAPPING[report.providerStatus];
    status = mapped === 'SUCCESS' ? 'PENDING' : mapped;
  }
  return status === 'PENDING' && timeOutIfPending ? 'TIMEOUT' : status;
}

function decideCashierReport(
  command: Extract<PaymentCommand, { type: 'ApplyCashierReport' }>,
  state: PaymentState | null,
): PaymentEvent[] {
  if (state === null) throw new DomainError('error.payment.not.found');
  const cashier = state.cashier;
  if (cashier === null) throw new DomainError('error.cashier.notification.invalid');
  const report = command.report;
  const known = report ? cashier.providerPayments[report.providerPaymentId] : undefined;
  let receivedMinor = known?.receivedMinor ?? 0;
  if (report) {
    const reportedMinor = receivedMinorAtInvoiceRate(cashier.amountAskedMinor, report.payAmount, report.actuallyPaid);
    if (reportedMinor === null) throw new DomainError('error.cashier.notification.invalid');
    // Only crediting statuses count what arrived; a report never lowers what was credited (money on a balance is
    // not taken back by a report, and an older answer must not undo a newer one).
    const counted = CASHIER_STATUS_MAPPING[report.providerStatus] === 'SUCCESS' ? reportedMinor : 0;
    receivedMinor = Math.max(receivedMinor, counted);
  }
  const creditedMinor = receivedMinor - (known?.receivedMinor ?? 0);
  const amountReceivedMinor = cashier.amountReceivedMinor + creditedMinor;
  const status = statusAfterReport(state, report, amountReceivedMinor, command.timeOutIfPending);
  const providerStatusChanged = report !== null && (known === undefined || known.status !== report.providerStatus);
  if (creditedMinor === 0 && status === state.status && !providerStatusChanged) return [];
  return [
    {
      type: 'CashierPaymentReported',
      data: {
        paymentId: state.paymentId,
        userUuid: state.userUuid,
        source: command.source,
        providerPaymentId: report?.providerPaymentId ?? cashier.providerPaymentId,
        providerStatus: report?.providerStatus ?? cashier.providerStatus,
        payAmount: report?.payAmount ?? null,
        actuallyPaid: report?.actuallyPaid ?? null,
        receivedMinor,
        creditedMinor,
        amountReceivedMinor,
        previousStatus: state.status,
        status,
        reportedAt: command.reportedAt,
      },
    },
  ];
}

function decide(command: PaymentCommand, state: PaymentState | null): PaymentEvent[] {
  switch (command.type) {
    case 'OpenCashierDeposit': {
      assert(state === null, `payment ${command.payment.paymentId} is recorded once`);
      const { payment, invoice } = command;
      assert(
        payment.aggregator === 'CASHIER' && payment.status === 'PENDING' && payment.type === 'DEPOSIT',
        'a crypto deposit opens as a PENDING cashier deposit',
      );
      assert(invoice.paymentId === payment.paymentId && invoice.amountAskedMinor === payment.amountMinor, 'invoice');
      return [
        { type: 'PaymentRecorded', data: payment },
        { type: 'CashierInvoiceOpened', data: invoice },
      ];
    }
    case 'ApplyCashierReport':
      return decideCashierReport(command, state);
    case 'RecordPayment': {
      assert(state === null, `payment ${command.payment.paymentId} is recorded once`);
      assert(
        Number.isSafeInteger(command.payment.amountMinor) && command.payment.amountMinor > 0,
        'a payment moves a positive amount',
      );
      return [{ type: 'PaymentRecorded', data: command.payment }];
    }
    case 'ChangePaymentStatus': {
      if (state === null) throw new DomainError('error.payment.not.found');
      if (state.aggregator !== 'MANUAL') throw new DomainError('error.payment.status.manual.only');
      if (state.status === command.status) return [];
      return [
        {
          type: 'PaymentStatusChanged',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            previousStatus: state.status,
            status: command.status,
            changedAt: command.changedAt,
            publicNote: command.publicNote,
          },
        },
      ];
    }
    case 'FollowDepositStatus': {
      assert(state !== null, `the bonus of deposit ${command.depositPaymentId} is recorded`);
      assert(
        state.type === 'AMBASSADOR_BONUS' && state.bonusForPaymentId === command.depositPaymentId,
        `payment ${state.paymentId} is the bonus of deposit ${command.depositPaymentId}`,
      );
      if (state.status === command.status) return [];
      return [
        {
          type: 'PaymentStatusChanged',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            previousStatus: state.status,
            status: command.status,
            changedAt: command.changedAt,
            publicNote: null,
          },
        },
      ];
    }
  }
}

function evolve(state: PaymentState | null, event: PaymentEvent): PaymentState | null {
  switch (event.type) {
    case 'PaymentRecorded':
      return { ...event.data, updatedAt: event.data.createdAt, cashier: null };
    case 'CashierInvoiceOpened': {
      assert(state !== null, `payment ${event.data.paymentId} opens its invoice after it was recorded`);
      const { provider, invoiceId, invoiceUrl, payCurrency, amountAskedMinor } = event.data;
      const cashier: PaymentCashierState = {
        provider,
        invoiceId,
        invoiceUrl,
        payCurrency,
        amountAskedMinor,
        providerPaymentId: null,
        providerStatus: null,
        providerPayments: {},
        amountReceivedMinor: 0,
      };
      return { ...state, cashier };
    }
    case 'CashierPaymentReported': {
      assert(state !== null && state.cashier !== null, `payment ${event.data.paymentId} has an invoice to report on`);
      const cashier = state.cashier;
      const { providerPaymentId, providerStatus, receivedMinor, amountReceivedMinor } = event.data;
      const providerPayments =
        providerPaymentId === null
          ? cashier.providerPayments
          : { ...cashier.providerPayments, [providerPaymentId]: { status: providerStatus, receivedMinor } };
      return {
        ...state,
        status: event.data.status,
        updatedAt: event.data.reportedAt,
        // A deposit's amount is what is on the books once anything arrived, and what was asked before.
        amountMinor: amountReceivedMinor > 0 ? amountReceivedMinor : state.amountMinor,
        cashier: { ...cashier, providerPaymentId, providerStatus, providerPayments, amountReceivedMinor },
      };
    }
    case 'PaymentStatusChanged':
      assert(state !== null, `payment ${event.data.paymentId} changes status only after it was recorded`);
      // A change's note replaces the one before, even by none: a note explains the payment's state, and an
      // explanation of an earlier state would now mislead the client.
      return {
        ...state,
        status: event.data.status,
        updatedAt: event.data.changedAt,
        publicNote: event.data.publicNote,
      };
  }
}

export const paymentDecider: Decider<PaymentState | null, PaymentCommand, PaymentEvent> = {
  decide,
  evolve,
  initialState: () => null,
};
