import type { VoucherEvent } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  dayVoucherExtensionKey,
  fundVoucherBatch,
  generateVoucherBatch,
  outstandingMinor,
  redeemableDayCode,
  redeemDayVoucher,
  redeemVoucher,
  voucherBatchEvolution,
} from './voucher-batch.decider';

/* Day vouchers (ADR 0089): a DAYS batch's codes each add days of one package; no money reaches a balance. */

const batchId = '55555555-5555-4555-8555-555555555555';
const planId = '66666666-6666-4666-8666-666666666666';
const subscriptionId = '77777777-7777-4777-8777-777777777777';
const dana = '11111111-1111-4111-8111-111111111111';
const tx = '00000000-0000-4000-8000-000000000001';
const at = new Date('2026-11-29T10:00:00.000Z');

const generated: VoucherEvent = {
  type: 'VoucherBatchGenerated',
  data: {
    batchId,
    label: 'Hanukkah gift',
    count: 2,
    amountMinor: 0,
    generatedAt: at.toISOString(),
    kind: 'DAYS',
    days: 30,
    planId,
    planName: 'Basic',
  },
};
const sold: VoucherEvent = {
  type: 'VoucherBatchSold',
  data: {
    batchId,
    amountMinor: 5000,
    comment: 'paid by the community centre',
    fundedAt: at.toISOString(),
    transaction: {
      transactionId: tx,
      postings: [{ source: 'world:manual', destination: 'revenue:subscriptions', amountMinor: 5000 }],
    },
  },
};
const givenAway: VoucherEvent = {
  type: 'VoucherBatchGivenAway',
  data: { batchId, amountMinor: 0, comment: 'launch promotion', fundedAt: at.toISOString(), transaction: null },
};
const redeemed = (codeIndex: number): VoucherEvent => ({
  type: 'VoucherCodeRedeemed',
  data: {
    batchId,
    codeIndex,
    userUuid: dana,
    paymentId: null,
    amountMinor: 0,
    redeemedAt: at.toISOString(),
    subscriptionId,
    days: 30,
  },
});

const { given } = deciderSpec(voucherBatchEvolution);
const daysOf = { days: 30, planId, planName: 'Basic' };

describe('day voucher batches', () => {
  describe('generating', () => {
    it('records the kind, the days and the package, worth no money', () => {
      given([])
        .when((state) =>
          generateVoucherBatch({ batchId, label: 'Hanukkah gift', count: 2, amountMinor: 0, daysOf, at }, state),
        )
        .then([generated]);
    });

    it('refuses more days than an extension may add, as a bug the validation stops first', () => {
      expect(() =>
        generateVoucherBatch(
          { batchId, label: 'x', count: 1, amountMinor: 0, daysOf: { ...daysOf, days: 367 }, at },
          null,
        ),
      ).toThrow(/1 to 366 days/);
    });

    it('reads a batch generated before kinds existed as MONEY', () => {
      const old: VoucherEvent = {
        type: 'VoucherBatchGenerated',
        data: { batchId, label: 'old', count: 1, amountMinor: 1000, generatedAt: at.toISOString() },
      };
      expect(fold(voucherBatchEvolution, [old])?.kind).toBe('MONEY');
    });
  });

  describe('funding', () => {
    it('sold: books what was received as subscription revenue at the sale, nothing into the liability', () => {
      given([generated])
        .when((state) =>
          fundVoucherBatch(
            { funding: 'SOLD', comment: 'paid by the community centre', receivedMinor: 5000, transactionId: tx, at },
            state,
          ),
        )
        .then([sold]);
    });

    it('given away: no money moves, the event with its comment explains the days', () => {
      given([generated])
        .when((state) =>
          fundVoucherBatch({ funding: 'GIVEN_AWAY', comment: 'launch promotion', transactionId: tx, at }, state),
        )
        .then([givenAway]);
    });

    it('sold without the amount received is refused', () => {
      given([generated])
        .when((state) => fundVoucherBatch({ funding: 'SOLD', comment: 'c', transactionId: tx, at }, state))
        .thenRejects('error.voucher.funding.amount.invalid');
    });

    it('given away with an amount is refused: nothing was received', () => {
      given([generated])
        .when((state) =>
          fundVoucherBatch({ funding: 'GIVEN_AWAY', comment: 'c', receivedMinor: 100, transactionId: tx, at }, state),
        )
        .thenRejects('error.voucher.funding.amount.invalid');
    });

    it('a money batch takes no amount: its worth was fixed at generation', () => {
      const money: VoucherEvent = {
        type: 'VoucherBatchGenerated',
        data: { batchId, label: 'm', count: 1, amountMinor: 1000, generatedAt: at.toISOString() },
      };
      given([money])
        .when((state) =>
          fundVoucherBatch({ funding: 'SOLD', comment: 'c', receivedMinor: 1000, transactionId: tx, at }, state),
        )
        .thenRejects('error.voucher.funding.amount.invalid');
    });

    it('once', () => {
      given([generated, givenAway])
        .when((state) =>
          fundVoucherBatch({ funding: 'SOLD', comment: 'c', receivedMinor: 5000, transactionId: tx, at }, state),
        )
        .thenRejects('error.voucher.batch.already.funded');
    });

    it('owes no money, sold or not: unredeemed days are service owed, not a liability', () => {
      expect(outstandingMinor(fold(voucherBatchEvolution, [generated, sold])!)).toBe(0);
    });
  });

  describe('redeeming', () => {
    it('records the code used with the subscription it extended and its days, and no payment', () => {
      given([generated, sold])
        .when((state) => redeemDayVoucher({ codeIndex: 1, userUuid: dana, subscriptionId, at }, state))
        .then([redeemed(1)]);
    });

    it('once, ever', () => {
      given([generated, sold, redeemed(1)])
        .when((state) => redeemDayVoucher({ codeIndex: 1, userUuid: dana, subscriptionId, at }, state))
        .thenRejects('error.voucher.code.already.redeemed');
    });

    it('not before the batch is sold or given away', () => {
      given([generated])
        .when((state) => redeemDayVoucher({ codeIndex: 0, userUuid: dana, subscriptionId, at }, state))
        .thenRejects('error.voucher.batch.not.funded');
    });

    it('a used code is told as used before a missing subscription is', () => {
      expect(() => redeemableDayCode(0, fold(voucherBatchEvolution, [generated, givenAway, redeemed(0)]))).toThrow(
        'error.voucher.code.already.redeemed',
      );
      expect(redeemableDayCode(1, fold(voucherBatchEvolution, [generated, givenAway, redeemed(0)])).days).toBe(30);
    });

    it('never credits a wallet: a day code is not money', () => {
      expect(() =>
        redeemVoucher(
          { codeIndex: 0, userUuid: dana, paymentId: 1, transactionId: tx, at },
          fold(voucherBatchEvolution, [generated, sold]),
        ),
      ).toThrow(/gives days, not money/);
    });

    it('keys the extension by batch and code, so a retried redemption adds the days once', () => {
      expect(dayVoucherExtensionKey(batchId, 1)).toBe(`voucher:${batchId}:1`);
    });
  });
});
