import {
  PROVIDER_CURRENCY,
  type CardCheckoutOpenedData,
  type CardProvider,
  type CardProviderStatus,
  type PaymentRecordedData,
  type PaymentStatus,
} from '@kupa/proto';
import { assert, DomainError } from '../../../kernel';
import type { PaymentEvent } from './ledger.events';
import type { PaymentCardState, PaymentState } from './payment.state';

/**
 * The card part of the payment decider (docs/adr/0029-card-checkout.md): a card deposit opens with its checkout and
 * is credited once, when the provider first reports it paid. `paymentDecider` composes it with the shared parts.
 */

/**
 * The card provider's checkout as its API described it after a signed webhook (never the webhook's body alone):
 * which event asked, the provider's payment, where the checkout stands, and what it paid in cents.
 */
export interface CardReport {
  /**
   * The provider that told it: the one whose webhook secret signed the event, or whose API the janitor asked. Only
   * the provider that holds the checkout may report on it (docs/adr/0080-sandbox-card-checkout.md).
   */
  provider: CardProvider;
  providerEventId: string;
  providerEventType: string;
  providerPaymentId: string | null;
  providerStatus: CardProviderStatus;
  /** The checkout's total, in the minor units of `currency`: what a paid checkout brought. */
  amountTotalMinor: number;
  /** The checkout's currency as the provider reports it (`usd`); null when it reports none. */
  currency: string | null;
}

export type CardDepositCommand =
  | {
      type: 'OpenCardCheckout';
      payment: PaymentRecordedData;
      checkout: CardCheckoutOpenedData;
    }
  | {
      /** What the card provider says now about the deposit's checkout (docs/adr/0029-card-checkout.md). */
      type: 'ApplyCardReport';
      report: CardReport;
      reportedAt: string;
      /** The ambassador bonus the same append books for the deposit; only with the report that credits. */
      bonusPaymentId?: number | null;
    };

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
  command: Extract<CardDepositCommand, { type: 'ApplyCardReport' }>,
  state: PaymentState | null,
): PaymentEvent[] {
  if (state === null) throw new DomainError('error.payment.not.found');
  const card = state.card;
  if (card === null) throw new DomainError('error.card.webhook.signature.invalid');
  const { report } = command;
  // The sandbox never settles a Stripe checkout nor Stripe a sandbox one: the provider's word counts only for its
  // own checkouts, so where money is booked from cannot be changed by who happens to report (ADR 0080).
  if (report.provider !== card.provider) throw new DomainError('error.card.webhook.signature.invalid');
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
  command: Extract<CardDepositCommand, { type: 'ApplyCardReport' }>,
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

export function decideCardDeposit(command: CardDepositCommand, state: PaymentState | null): PaymentEvent[] {
  switch (command.type) {
    case 'OpenCardCheckout': {
      assert(state === null, `payment ${command.payment.paymentId} is recorded once`);
      const { payment, checkout } = command;
      assert(
        payment.aggregator === 'STRIPE' && payment.status === 'PENDING' && payment.type === 'DEPOSIT',
        'a card deposit opens as a PENDING STRIPE deposit',
      );
      assert(checkout.paymentId === payment.paymentId && checkout.amountAskedMinor === payment.amountMinor, 'checkout');
      return [
        { type: 'PaymentRecorded', data: payment },
        { type: 'CardCheckoutOpened', data: checkout },
      ];
    }
    case 'ApplyCardReport':
      return decideCardReport(command, state);
  }
}

export type CardDepositEvent = Extract<PaymentEvent, { type: 'CardCheckoutOpened' | 'CardPaymentReported' }>;

export function evolveCardDeposit(state: PaymentState | null, event: CardDepositEvent): PaymentState | null {
  switch (event.type) {
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
  }
}
