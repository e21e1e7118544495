import { deciderSpec } from '../../../test-support/decider-spec';
import {
  acknowledgeLargeDeposit,
  type DepositAttentionState,
  depositAttentionEvolution,
  type DepositFacts,
} from './large-deposit-attention.decider';

const admin = '99999999-9999-4999-8999-999999999999';
const dana = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-30T10:00:00.000Z');
const deposit: DepositFacts = {
  paymentId: 134,
  userUuid: dana,
  type: 'DEPOSIT',
  status: 'SUCCESS',
  correction: false,
  amountMinor: 150_000,
};
const acknowledge =
  (facts: Partial<DepositFacts> = {}) =>
  (state: DepositAttentionState) =>
    acknowledgeLargeDeposit(
      { deposit: { ...deposit, ...facts }, largeDepositMinMinor: 100_000, actorId: admin, at },
      state,
    );
const acknowledged = {
  type: 'LargeDepositAcknowledged' as const,
  data: { paymentId: 134, userUuid: dana, amountMinor: 150_000, actorId: admin, acknowledgedAt: at.toISOString() },
};

const { given } = deciderSpec(depositAttentionEvolution);

describe('large deposit attention', () => {
  it('records who saw a large deposit, and when', () => {
    given([]).when(acknowledge()).then([acknowledged]);
  });

  it('records it once: a second staff member marking it seen records nothing', () => {
    given([acknowledged]).when(acknowledge()).then([]);
  });

  it('takes a deposit of exactly the threshold', () => {
    given([])
      .when(acknowledge({ amountMinor: 100_000 }))
      .then([{ ...acknowledged, data: { ...acknowledged.data, amountMinor: 100_000 } }]);
  });

  it.each([
    ['below the threshold', { amountMinor: 99_999 }],
    ['not a deposit', { type: 'WITHDRAWAL' }],
    ['not successful', { status: 'PENDING' }],
    ['a balance correction', { correction: true }],
  ])('refuses a payment %s: it is not in the queue', (_, facts) => {
    given([]).when(acknowledge(facts)).thenRejects('error.payment.not.large.deposit');
  });
});
