import type { DepositClaimEvent } from '@kupa/proto';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  claimManualTransfer,
  type DepositClaimsState,
  depositClaimsEvolution,
  rejectClaim,
  settleClaim,
} from './deposit-claims.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-30T10:00:00.000Z');
const claim =
  (claimId: string, amountMinor = 25_000) =>
  (state: DepositClaimsState) =>
    claimManualTransfer(
      {
        claimId,
        userUuid: dana,
        amountMinor,
        reference: '12345678',
        note: 'Bank Leumi',
        depositMinMinor: 1_000,
        depositMaxMinor: 1_000_000,
        at,
      },
      state,
    );
const claimed = (claimId: string): DepositClaimEvent => ({
  type: 'ManualTransferClaimed',
  data: {
    claimId,
    userUuid: dana,
    amountMinor: 25_000,
    currency: 'USD',
    reference: '12345678',
    note: 'Bank Leumi',
    claimedAt: at.toISOString(),
  },
});
const settled = (claimId: string): DepositClaimEvent => ({
  type: 'ManualTransferClaimSettled',
  data: { claimId, userUuid: dana, paymentId: 134, settledAt: at.toISOString() },
});
const rejected = (claimId: string): DepositClaimEvent => ({
  type: 'ManualTransferClaimRejected',
  data: { claimId, userUuid: dana, reasonText: 'No such transfer arrived', rejectedAt: at.toISOString() },
});
const settle = (claimId: string) => (state: DepositClaimsState) =>
  settleClaim({ claimId, userUuid: dana, paymentId: 134, at }, state);
const reject = (claimId: string) => (state: DepositClaimsState) =>
  rejectClaim({ claimId, userUuid: dana, reasonText: 'No such transfer arrived', at }, state);

const { given } = deciderSpec(depositClaimsEvolution);

describe('manual-transfer claims', () => {
  it('records what the client says they sent, with their profile ID as the reference', () => {
    given([])
      .when(claim('c1'))
      .then([claimed('c1')]);
  });

  it.each([
    ['under the deposit minimum', 999],
    ['over the deposit maximum', 1_000_001],
    ['zero', 0],
  ])('refuses an amount %s', (_, amountMinor) => {
    given([])
      .when(claim('c1', amountMinor))
      .thenRejects('error.deposit.amount.out.of.range', { minAmount: 10, maxAmount: 10_000 });
  });

  it('refuses a sixth open claim, and takes one again once a claim is closed', () => {
    const five = ['c1', 'c2', 'c3', 'c4', 'c5'].map(claimed);
    given(five).when(claim('c6')).thenRejects('error.deposit.claim.too.many.open', { max: 5 });
    given([...five, settled('c1')])
      .when(claim('c6'))
      .then([claimed('c6')]);
    given([...five, rejected('c2')])
      .when(claim('c6'))
      .then([claimed('c6')]);
  });

  it('settles an open claim with the deposit that paid it', () => {
    given([claimed('c1')])
      .when(settle('c1'))
      .then([settled('c1')]);
  });

  it('rejects an open claim with the reason', () => {
    given([claimed('c1')])
      .when(reject('c1'))
      .then([rejected('c1')]);
  });

  it('never changes a settled or rejected claim again', () => {
    given([claimed('c1'), settled('c1')])
      .when(settle('c1'))
      .thenRejects('error.deposit.claim.closed');
    given([claimed('c1'), settled('c1')])
      .when(reject('c1'))
      .thenRejects('error.deposit.claim.closed');
    given([claimed('c1'), rejected('c1')])
      .when(settle('c1'))
      .thenRejects('error.deposit.claim.closed');
    given([claimed('c1'), rejected('c1')])
      .when(reject('c1'))
      .thenRejects('error.deposit.claim.closed');
  });

  it("answers not found for a claim that is not on this client's stream", () => {
    given([claimed('c1')])
      .when(settle('other'))
      .thenRejects('error.deposit.claim.not.found');
    given([]).when(reject('c1')).thenRejects('error.deposit.claim.not.found');
  });
});
