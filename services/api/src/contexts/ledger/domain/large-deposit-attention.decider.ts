import { DEPOSIT_ATTENTION_EVENT_TYPES, type DepositAttentionEvent, type DepositAttentionEventType } from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';

/*
 * A large deposit in the dashboard's queue (docs/product.md, Dashboard): a staff member marks it seen, once, and it
 * leaves the queue. Its stream, `deposit-attention-{paymentId}`, is apart from the payment's: seeing a deposit moves
 * no money and changes nothing `kupa ledger verify` replays.
 */

export const ALL_DEPOSIT_ATTENTION_EVENT_TYPES: readonly DepositAttentionEventType[] = Object.freeze(
  Object.values(DEPOSIT_ATTENTION_EVENT_TYPES),
);

export interface DepositAttentionState {
  acknowledged: boolean;
}

export const depositAttentionEvolution: Evolution<DepositAttentionState, DepositAttentionEvent> = {
  initialState: () => ({ acknowledged: false }),
  evolve: () => ({ acknowledged: true }),
};

/** The payment as the rule needs it, read from the payments read model. */
export interface DepositFacts {
  paymentId: number;
  userUuid: string;
  type: string;
  status: string;
  correction: boolean;
  amountMinor: number;
}

export interface AcknowledgeLargeDeposit {
  deposit: DepositFacts;
  /** `LARGE_DEPOSIT_MIN`: what makes a deposit large. */
  largeDepositMinMinor: number;
  actorId: string;
  at: Date;
}

/** Whether the payment is one the queue lists as a large deposit (its window aside). */
export function isLargeDeposit(deposit: DepositFacts, largeDepositMinMinor: number): boolean {
  return (
    deposit.type === 'DEPOSIT' &&
    deposit.status === 'SUCCESS' &&
    !deposit.correction &&
    deposit.amountMinor >= largeDepositMinMinor
  );
}

/**
 * Marks a large deposit seen: only a successful deposit (not a correction) of at least the threshold; a second mark
 * records nothing, so two staff members pressing the button at once leave one entry.
 */
export function acknowledgeLargeDeposit(
  command: AcknowledgeLargeDeposit,
  state: DepositAttentionState,
): DepositAttentionEvent[] {
  if (state.acknowledged) return [];
  if (!isLargeDeposit(command.deposit, command.largeDepositMinMinor))
    throw new DomainError('error.payment.not.large.deposit');
  return [
    {
      type: 'LargeDepositAcknowledged',
      data: {
        paymentId: command.deposit.paymentId,
        userUuid: command.deposit.userUuid,
        amountMinor: command.deposit.amountMinor,
        actorId: command.actorId,
        acknowledgedAt: command.at.toISOString(),
      },
    },
  ];
}
