import type { PaymentRecordedData, PaymentStatus } from '@kupa/proto';
import { assert, type Decider, DomainError } from '../../../kernel';
import type { PaymentEvent } from './ledger.events';
import type { PaymentState } from './payment.state';

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

function decide(command: PaymentCommand, state: PaymentState | null): PaymentEvent[] {
  switch (command.type) {
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
      return { ...event.data, updatedAt: event.data.createdAt };
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
