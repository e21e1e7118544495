import {
  PROVIDER_CURRENCY,
  type CardCheckoutOpenedData,
  type CardProviderStatus,
  CASHIER_STATUS_MAPPING,
  type CashierInvoiceOpenedData,
  type CashierPaymentReportedData,
  type CashierProviderStatus,
  type DepositPurchaseRequestedData,
  type ErrorCode,
  type PaymentRecordedData,
  type PaymentStatus,
  receivedMinorAtInvoiceRate,
  staffStatusChoices,
} from '@kupa/proto';
import { assert, type Decider, DomainError } from '../../../kernel';
import type { PaymentEvent } from './ledger.events';
import type { PaymentCardState, PaymentCashierState, PaymentState } from './payment.state';

/**
 * The card provider's checkout as its API described it after a signed webhook (never the webhook's body alone):
 * which event asked, the provider's payment, where the checkout stands, and what it paid in cents.
 */
export interface CardReport {
  providerEventId: string;
  providerEventType: string;
  providerPaymentId: string | null;
  providerStatus: CardProviderStatus;
  /** The checkout's total, in the minor units of `currency`: what a paid checkout brought. */
  amountTotalMinor: number;
  /** The checkout's currency as the provider reports it (`usd`); null when it reports none. */
  currency: string | null;
}

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
  | {
      type: 'OpenCashierDeposit';
      payment: PaymentRecordedData;
      invoice: CashierInvoiceOpenedData;
      /** What the deposit buys or renews once the money arrives (ADR 0030); null for a plain top-up. */
      purchase?: DepositPurchaseRequestedData | null;
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
    }
  | {
      /**
       * A crypto deposit that arrived in parts reached a larger bonus than its bonus payment holds: the bonus grows to
       * `amountMinor` (the tier `percent` of `depositAmountMinor`, the deposit's total so far).
       */
      type: 'RaiseAmbassadorBonus';
      depositPaymentId: number;
      depositAmountMinor: number;
      percent: number;
      amountMinor: number;
      raisedAt: string;
    }
  | {
      type: 'OpenCardCheckout';
      payment: PaymentRecordedData;
      checkout: CardCheckoutOpenedData;
      /** What the card deposit buys once the money arrives. */
      purchase: DepositPurchaseRequestedData;
    }
  | {
      /** What the card provider says now about the deposit's checkout (docs/adr/0029-card-checkout.md). */
      type: 'ApplyCardReport';
      report: CardReport;
      reportedAt: string;
      /** The ambassador bonus the same append books for the deposit; only with the report that credits. */
      bonusPaymentId?: number | null;
    }
  | {
      /** The purchase a deposit paid for happened (once: a purchase no longer WAITING decides nothing). */
      type: 'CompleteDepositPurchase';
      subscriptionPaymentId: number;
      chargedMinor: number;
      completedAt: string;
    }
  | {
      /** The purchase a deposit paid for could not follow; the money stays on the balance. Once, like the above. */
      type: 'FailDepositPurchase';
      errorCode: ErrorCode;
      failedAt: string;
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

/** Our status after a card report: a paid checkout is SUCCESS for good; before that the provider's status maps. */
function statusAfterCardReport(state: PaymentState, report: CardReport): PaymentStatus {
  if (state.status === 'SUCCESS') return 'SUCCESS';
  switch (report.providerStatus) {
    case 'paid':
    case 'no_payment_required':
      return 'SUCCESS';
    case 'failed':
      return 'FAILED';
    case 'expired':
      return state.status === 'PENDING' ? 'TIMEOUT' : state.status;
    case 'unpaid':
      return state.status;
  }
}

/**
 * A card report (docs/adr/0029-card-checkout.md). Idempotent twice over: an event id already applied decides
 * nothing, and a checkout credits once, when it is first seen paid, whatever arrives later or in which order (a
 * failure after the money arrived changes nothing: money on a balance is never taken back by a report).
 */
function decideCardReport(
  command: Extract<PaymentCommand, { type: 'ApplyCardReport' }>,
  state: PaymentState | null,
): PaymentEvent[] {
  if (state === null) throw new DomainError('error.payment.not.found');
  const card = state.card;
  if (card === null) throw new DomainError('error.card.webhook.signature.invalid');
  const { report } = command;
  if (card.providerEventIds.includes(report.providerEventId)) return [];
  // A checkout held for staff stays theirs: no later report credits it, whatever it says.
  if (card.mismatch !== null) return [];
  const status = statusAfterCardReport(state, report);
  const credits = status === 'SUCCESS' && state.status !== 'SUCCESS';
  // Only what was asked, in dollars, is credited as asked: a paid session reporting anything else is held for staff.
  if (credits && (report.currency !== PROVIDER_CURRENCY || report.amountTotalMinor !== card.amountAskedMinor))
    return [
      cardReported(state, command, {
        providerPaymentId: report.providerPaymentId ?? card.providerPaymentId,
        providerStatus: report.providerStatus,
        creditedMinor: 0,
        status: 'REVIEW',
        mismatch: { currency: report.currency, amountTotalMinor: report.amountTotalMinor },
      }),
    ];
  if (credits) {
    assert(
      Number.isSafeInteger(report.amountTotalMinor) && report.amountTotalMinor > 0,
      'a paid checkout brought a positive amount',
    );
  }
  const creditedMinor = credits ? report.amountTotalMinor : 0;
  const providerPaymentId = report.providerPaymentId ?? card.providerPaymentId;
  // Once paid, the provider's later word (a failure out of order) is no longer recorded: the checkout is settled.
  const providerStatus = state.status === 'SUCCESS' ? card.providerStatus : report.providerStatus;
  if (
    creditedMinor === 0 &&
    status === state.status &&
    providerStatus === card.providerStatus &&
    providerPaymentId === card.providerPaymentId
  )
    return [];
  return [
    cardReported(state, command, {
      providerPaymentId,
      providerStatus,
      creditedMinor,
      status,
      ...(creditedMinor > 0 && command.bonusPaymentId ? { bonusPaymentId: command.bonusPaymentId } : {}),
    }),
  ];
}

/** A card report's event: what the report and the payment say, plus what this report decided. */
function cardReported(
  state: PaymentState,
  command: Extract<PaymentCommand, { type: 'ApplyCardReport' }>,
  decided: Pick<
    Extract<PaymentEvent, { type: 'CardPaymentReported' }>['data'],
    'providerPaymentId' | 'providerStatus' | 'creditedMinor' | 'status' | 'mismatch' | 'bonusPaymentId'
  >,
): PaymentEvent {
  const card = state.card;
  assert(card !== null, 'only a card checkout is reported by the card provider');
  return {
    type: 'CardPaymentReported',
    data: {
      paymentId: state.paymentId,
      userUuid: state.userUuid,
      providerEventId: command.report.providerEventId,
      providerEventType: command.report.providerEventType,
      amountReceivedMinor: card.amountReceivedMinor + decided.creditedMinor,
      previousStatus: state.status,
      reportedAt: command.reportedAt,
      ...decided,
    },
  };
}

/** The deposit's purchase, which a completion or a failure needs; null once it is no longer waiting. */
function waitingPurchase(state: PaymentState | null): PaymentState | null {
  assert(state !== null && state.purchase !== null, 'only a deposit that pays for a purchase completes or fails one');
  return state.purchase.status === 'WAITING' ? state : null;
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
      const purchase = command.purchase ?? null;
      if (purchase !== null) {
        assert(purchase.paymentId === payment.paymentId && purchase.userUuid === payment.userUuid, 'purchase');
        assert(Number.isSafeInteger(purchase.priceMinor) && purchase.priceMinor > 0, 'a purchase has a price');
        assert((purchase.kind === 'BUY') === (purchase.login !== null), 'a purchase names a login, a renewal none');
      }
      return [
        { type: 'PaymentRecorded', data: payment },
        { type: 'CashierInvoiceOpened', data: invoice },
        ...(purchase !== null ? [{ type: 'DepositPurchaseRequested' as const, data: purchase }] : []),
      ];
    }
    case 'RaiseAmbassadorBonus': {
      assert(
        state !== null &&
          state.type === 'AMBASSADOR_BONUS' &&
          state.bonusForPaymentId === command.depositPaymentId &&
          state.status === 'SUCCESS',
        `the bonus of deposit ${command.depositPaymentId} is booked`,
      );
      assert(command.amountMinor > state.amountMinor, 'a bonus is raised, never lowered');
      return [
        {
          type: 'AmbassadorBonusRaised',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            depositPaymentId: command.depositPaymentId,
            depositAmountMinor: command.depositAmountMinor,
            percent: command.percent,
            addedMinor: command.amountMinor - state.amountMinor,
            amountMinor: command.amountMinor,
            raisedAt: command.raisedAt,
          },
        },
      ];
    }
    case 'CompleteDepositPurchase': {
      const deposit = waitingPurchase(state);
      if (deposit === null || deposit.purchase === null) return [];
      return [
        {
          type: 'DepositPurchaseCompleted',
          data: {
            paymentId: deposit.paymentId,
            userUuid: deposit.userUuid,
            kind: deposit.purchase.kind,
            subscriptionId: deposit.purchase.subscriptionId,
            subscriptionPaymentId: command.subscriptionPaymentId,
            chargedMinor: command.chargedMinor,
            completedAt: command.completedAt,
          },
        },
      ];
    }
    case 'FailDepositPurchase': {
      const deposit = waitingPurchase(state);
      if (deposit === null || deposit.purchase === null) return [];
      return [
        {
          type: 'DepositPurchaseFailed',
          data: {
            paymentId: deposit.paymentId,
            userUuid: deposit.userUuid,
            kind: deposit.purchase.kind,
            errorCode: command.errorCode,
            amountReceivedMinor: deposit.cashier?.amountReceivedMinor ?? deposit.card?.amountReceivedMinor ?? 0,
            failedAt: command.failedAt,
          },
        },
      ];
    }
    case 'ApplyCashierReport':
      return decideCashierReport(command, state);
    case 'OpenCardCheckout': {
      assert(state === null, `payment ${command.payment.paymentId} is recorded once`);
      const { payment, checkout, purchase } = command;
      assert(
        payment.aggregator === 'STRIPE' && payment.status === 'PENDING' && payment.type === 'DEPOSIT',
        'a card deposit opens as a PENDING STRIPE deposit',
      );
      assert(checkout.paymentId === payment.paymentId && checkout.amountAskedMinor === payment.amountMinor, 'checkout');
      assert(purchase.paymentId === payment.paymentId && purchase.userUuid === payment.userUuid, 'purchase');
      assert(purchase.kind === 'BUY' && purchase.login !== null, 'a card checkout buys a package under a login');
      return [
        { type: 'PaymentRecorded', data: payment },
        { type: 'CardCheckoutOpened', data: checkout },
        { type: 'DepositPurchaseRequested', data: purchase },
      ];
    }
    case 'ApplyCardReport':
      return decideCardReport(command, state);
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
      // A provider's payment held for review (ADR 0058) is closed by staff without money; any other is the provider's.
      if (!staffStatusChoices(state).includes(command.status))
        throw new DomainError('error.payment.status.manual.only');
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
      return { ...event.data, updatedAt: event.data.createdAt, cashier: null, card: null, purchase: null };
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
    case 'CardCheckoutOpened': {
      assert(state !== null, `payment ${event.data.paymentId} opens its checkout after it was recorded`);
      const { provider, checkoutSessionId, checkoutUrl, amountAskedMinor } = event.data;
      const card: PaymentCardState = {
        provider,
        checkoutSessionId,
        checkoutUrl,
        amountAskedMinor,
        providerPaymentId: null,
        providerStatus: 'unpaid',
        amountReceivedMinor: 0,
        providerEventIds: [],
        mismatch: null,
      };
      return { ...state, card };
    }
    case 'CardPaymentReported': {
      assert(state !== null && state.card !== null, `payment ${event.data.paymentId} has a checkout to report on`);
      const { providerEventId, providerPaymentId, providerStatus, amountReceivedMinor } = event.data;
      return {
        ...state,
        status: event.data.status,
        updatedAt: event.data.reportedAt,
        amountMinor: amountReceivedMinor > 0 ? amountReceivedMinor : state.amountMinor,
        card: {
          ...state.card,
          providerPaymentId,
          providerStatus,
          amountReceivedMinor,
          providerEventIds: [...state.card.providerEventIds, providerEventId],
          mismatch: event.data.mismatch ?? state.card.mismatch,
        },
        bonusPaymentId: event.data.bonusPaymentId ?? state.bonusPaymentId ?? null,
      };
    }
    case 'AmbassadorBonusRaised':
      assert(state !== null, `bonus ${event.data.paymentId} is raised after it was recorded`);
      return { ...state, amountMinor: event.data.amountMinor, updatedAt: event.data.raisedAt };
    case 'DepositPurchaseRequested': {
      assert(state !== null, `deposit ${event.data.paymentId} pays for a purchase once it is recorded`);
      const { kind, paymentPlanId, planName, subscriptionId, login, priceMinor, discountPercent } = event.data;
      return {
        ...state,
        updatedAt: event.data.requestedAt,
        purchase: {
          kind,
          paymentPlanId,
          planName,
          subscriptionId,
          login,
          priceMinor,
          discountPercent,
          status: 'WAITING',
          errorCode: null,
          subscriptionPaymentId: null,
        },
      };
    }
    case 'DepositPurchaseCompleted':
      assert(state !== null && state.purchase !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return {
        ...state,
        updatedAt: event.data.completedAt,
        purchase: { ...state.purchase, status: 'DONE', subscriptionPaymentId: event.data.subscriptionPaymentId },
      };
    case 'DepositPurchaseFailed':
      assert(state !== null && state.purchase !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return {
        ...state,
        updatedAt: event.data.failedAt,
        purchase: { ...state.purchase, status: 'FAILED', errorCode: event.data.errorCode },
      };
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
