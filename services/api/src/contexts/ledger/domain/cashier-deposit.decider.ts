import {
  CASHIER_STATUS_MAPPING,
  type CashierInvoiceOpenedData,
  type CashierPaymentReportedData,
  type CashierProviderStatus,
  type PaymentRecordedData,
  type PaymentStatus,
  receivedMinorAtInvoiceRate,
} from '@kupa/proto';
import { assert, DomainError } from '../../../kernel';
import type { PaymentEvent } from './ledger.events';
import type { PaymentCashierState, PaymentState } from './payment.state';

/**
 * The cashier part of the payment decider (docs/adr/0028-crypto-cashier.md): a crypto deposit opens with its invoice
 * and is credited by what the provider reports. `paymentDecider` composes it with the parts every payment shares.
 */

/** A provider payment as the provider's API described it when we asked (never an IPN's body). */
export interface CashierReport {
  providerPaymentId: string;
  providerStatus: CashierProviderStatus;
  /** The crypto amount the invoice asked for and the amount that arrived, as the provider wrote them. */
  payAmount: string;
  actuallyPaid: string;
}

export type CashierDepositCommand =
  | {
      type: 'OpenCashierDeposit';
      payment: PaymentRecordedData;
      invoice: CashierInvoiceOpenedData;
    }
  | {
      /**
       * What the provider says now about a payment on the deposit's invoice; null when the janitor has none to ask
       * about. `timeOutIfPending` (the janitor, past the window) turns a deposit still PENDING after the report into
       * TIMEOUT. `bonusPaymentId` links the deposit to the ambassador bonus the same append books first for it.
       */
      type: 'ApplyCashierReport';
      paymentId: number;
      report: CashierReport | null;
      source: CashierPaymentReportedData['source'];
      reportedAt: string;
      timeOutIfPending: boolean;
      bonusPaymentId?: number | null;
      /** The most one deposit may credit (`CASHIER_DEPOSIT_MAX`); more is held for staff (ADR 0058). */
      maxCreditMinor?: number;
    };

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
  command: Extract<CashierDepositCommand, { type: 'ApplyCashierReport' }>,
  state: PaymentState | null,
): PaymentEvent[] {
  if (state === null) throw new DomainError('error.payment.not.found');
  const cashier = state.cashier;
  if (cashier === null) throw new DomainError('error.cashier.notification.invalid');
  // A deposit held for staff stays theirs: no later report credits it, whatever it says.
  if (cashier.heldMinor !== null) return [];
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
  // More than one deposit may bring is not credited: it waits for staff, REVIEW unless money was already credited.
  if (report !== null && command.maxCreditMinor !== undefined && amountReceivedMinor > command.maxCreditMinor)
    return [
      {
        type: 'CashierPaymentReported',
        data: {
          paymentId: state.paymentId,
          userUuid: state.userUuid,
          source: command.source,
          providerPaymentId: report.providerPaymentId,
          providerStatus: report.providerStatus,
          payAmount: report.payAmount,
          actuallyPaid: report.actuallyPaid,
          receivedMinor: known?.receivedMinor ?? 0,
          creditedMinor: 0,
          amountReceivedMinor: cashier.amountReceivedMinor,
          previousStatus: state.status,
          status: cashier.amountReceivedMinor > 0 ? state.status : 'REVIEW',
          reportedAt: command.reportedAt,
          heldForReviewMinor: creditedMinor,
        },
      },
    ];
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
        // Only the report that books the deposit's first bonus names it, so every other report stays as it was.
        ...(command.bonusPaymentId ? { bonusPaymentId: command.bonusPaymentId } : {}),
      },
    },
  ];
}

export function decideCashierDeposit(command: CashierDepositCommand, state: PaymentState | null): PaymentEvent[] {
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
  }
}

export type CashierDepositEvent = Extract<PaymentEvent, { type: 'CashierInvoiceOpened' | 'CashierPaymentReported' }>;

export function evolveCashierDeposit(state: PaymentState | null, event: CashierDepositEvent): PaymentState | null {
  switch (event.type) {
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
        heldMinor: null,
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
        cashier: {
          ...cashier,
          providerPaymentId,
          providerStatus,
          providerPayments,
          amountReceivedMinor,
          heldMinor: event.data.heldForReviewMinor ?? cashier.heldMinor ?? null,
        },
        bonusPaymentId: event.data.bonusPaymentId ?? state.bonusPaymentId ?? null,
      };
    }
  }
}
