import { type PaymentRecordedData, type PaymentStatus, staffStatusChoices } from '@kupa/proto';
import { assert, type Decider, DomainError } from '../../../kernel';
import { type CardDepositCommand, decideCardDeposit, evolveCardDeposit } from './card-deposit.decider';
import { type CashierDepositCommand, decideCashierDeposit, evolveCashierDeposit } from './cashier-deposit.decider';
import type { PaymentEvent } from './ledger.events';
import type { PaymentState } from './payment.state';

export type { CardReport } from './card-deposit.decider';
export type { CashierReport } from './cashier-deposit.decider';

/**
 * A payment's stream: what every payment shares (recording, status changes and the money they move, an ambassador
 * bonus following its deposit), composed with the cashier part (`cashier-deposit.decider.ts`) and the card part
 * (`card-deposit.decider.ts`), each deciding and folding its own commands and events.
 */
export type PaymentCommand =
  | CashierDepositCommand
  | CardDepositCommand
  | { type: 'RecordPayment'; payment: PaymentRecordedData }
  | {
      type: 'ChangePaymentStatus';
      paymentId: number;
      status: PaymentStatus;
      changedAt: string;
      /** What staff tell the client about the change; null keeps the message the client was shown (ADR 0078). */
      publicNote: string | null;
    }
  | {
      /**
       * Staff give a SUCCESS SUBSCRIPTION_PAYMENT's whole amount back to the balance as the REFUND payment
       * `refundPaymentId` (ADR 0092): at most once, and only such a payment.
       */
      type: 'RefundToBalance';
      paymentId: number;
      refundPaymentId: number;
      subscriptionId: string;
      reason: string;
      endedSubscription: boolean;
      refundedAt: string;
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

/** The change of `state` to `status`, or nothing when it already has that status. */
function statusChanged(
  state: PaymentState,
  status: PaymentStatus,
  changedAt: string,
  publicNote: string | null,
): PaymentEvent[] {
  if (state.status === status) return [];
  const { paymentId, userUuid } = state;
  return [
    {
      type: 'PaymentStatusChanged',
      data: { paymentId, userUuid, previousStatus: state.status, status, changedAt, publicNote },
    },
  ];
}

function decide(command: PaymentCommand, state: PaymentState | null): PaymentEvent[] {
  switch (command.type) {
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
    case 'OpenCashierDeposit':
    case 'ApplyCashierReport':
      return decideCashierDeposit(command, state);
    case 'OpenCardCheckout':
    case 'ApplyCardReport':
      return decideCardDeposit(command, state);
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
      // An empty optional note is staff saying nothing new, not erasing what the client was told (ADR 0078); the
      // event carries the kept message, since a stored change with a null note still clears it when folded.
      return statusChanged(state, command.status, command.changedAt, command.publicNote ?? state.publicNote);
    }
    case 'RefundToBalance': {
      if (state === null) throw new DomainError('error.payment.not.found');
      if (state.refundedByPaymentId) throw new DomainError('error.payment.already.refunded');
      if (state.type !== 'SUBSCRIPTION_PAYMENT' || state.status !== 'SUCCESS')
        throw new DomainError('error.payment.not.refundable');
      assert(command.refundPaymentId !== state.paymentId, 'a refund is a payment of its own');
      return [
        {
          type: 'PaymentRefundedToBalance',
          data: {
            paymentId: state.paymentId,
            userUuid: state.userUuid,
            refundPaymentId: command.refundPaymentId,
            subscriptionId: command.subscriptionId,
            amountMinor: state.amountMinor,
            reason: command.reason,
            endedSubscription: command.endedSubscription,
            refundedAt: command.refundedAt,
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
      return statusChanged(state, command.status, command.changedAt, null);
    }
  }
}

function evolve(state: PaymentState | null, event: PaymentEvent): PaymentState | null {
  switch (event.type) {
    case 'PaymentRecorded':
      return { ...event.data, updatedAt: event.data.createdAt, cashier: null, card: null };
    case 'CashierInvoiceOpened':
    case 'CashierPaymentReported':
      return evolveCashierDeposit(state, event);
    case 'CardCheckoutOpened':
    case 'CardPaymentReported':
      return evolveCardDeposit(state, event);
    case 'AmbassadorBonusRaised':
      assert(state !== null, `bonus ${event.data.paymentId} is raised after it was recorded`);
      return { ...state, amountMinor: event.data.amountMinor, updatedAt: event.data.raisedAt };
    // What a deposit buys is the subscriptions' (ADR 0068); these events are on a deposit's stream only in histories
    // written before. The request happened in the instant of the deposit's recording and changes nothing of it; a
    // completion or a failure is a later change of the deposit.
    case 'DepositPurchaseRequested':
      assert(state !== null, `deposit ${event.data.paymentId} pays for a purchase once it is recorded`);
      return state;
    case 'DepositPurchaseCompleted':
      assert(state !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return { ...state, updatedAt: event.data.completedAt };
    case 'DepositPurchaseFailed':
      assert(state !== null, `deposit ${event.data.paymentId} paid for a purchase`);
      return { ...state, updatedAt: event.data.failedAt };
    case 'PaymentRefundedToBalance':
      assert(state !== null, `payment ${event.data.paymentId} is refunded after it was recorded`);
      return { ...state, refundedByPaymentId: event.data.refundPaymentId, updatedAt: event.data.refundedAt };
    case 'PaymentStatusChanged':
      assert(state !== null, `payment ${event.data.paymentId} changes status only after it was recorded`);
      // A change's note replaces the one before. Changes stored before ADR 0078 may carry none, which cleared it then
      // and still does; the decider now writes the kept note into the event instead.
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
