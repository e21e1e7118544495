import type { VoucherEvent } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { netChangeMinor } from './postings';
import {
  fundVoucherBatch,
  generateVoucherBatch,
  outstandingMinor,
  redeemVoucher,
  voucherBatchEvolution,
} from './voucher-batch.decider';
import { walletDecider } from './wallet.decider';

const batchId = '44444444-4444-4444-8444-444444444444';
const dana = '11111111-1111-4111-8111-111111111111';
const omer = '22222222-2222-4222-8222-222222222222';
const tx = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = new Date('2026-11-29T10:00:00.000Z');

const generated: VoucherEvent = {
  type: 'VoucherBatchGenerated',
  data: { batchId, label: 'Winter fair', count: 3, amountMinor: 1500, generatedAt: at.toISOString() },
};
const sold: VoucherEvent = {
  type: 'VoucherBatchSold',
  data: {
    batchId,
    amountMinor: 4500,
    comment: 'paid in cash by the fair',
    fundedAt: at.toISOString(),
    transaction: {
      transactionId: tx(1),
      postings: [{ source: 'world:manual', destination: 'liability:vouchers', amountMinor: 4500 }],
    },
  },
};
const redeemedBy = (userUuid: string, codeIndex: number, paymentId: number): VoucherEvent => ({
  type: 'VoucherCodeRedeemed',
  data: { batchId, codeIndex, userUuid, paymentId, amountMinor: 1500, redeemedAt: at.toISOString() },
});

const { given } = deciderSpec(voucherBatchEvolution);
const redeem = (codeIndex: number, userUuid = dana) =>
  redeemVoucher({ codeIndex, userUuid, paymentId: 7, transactionId: tx(7), at }, fold(voucherBatchEvolution, history));
let history: VoucherEvent[] = [];

describe('voucher batch decider', () => {
  describe('generating', () => {
    it('records how many codes and what each is worth, and nothing of the codes themselves', () => {
      given([])
        .when((state) =>
          generateVoucherBatch({ batchId, label: 'Winter fair', count: 3, amountMinor: 1500, at }, state),
        )
        .then([generated]);
    });

    it('refuses a batch larger than the limit as a bug: the request validation stops it first', () => {
      expect(() => generateVoucherBatch({ batchId, label: 'x', count: 1001, amountMinor: 100, at }, null)).toThrow(
        /1 to 1000 codes/,
      );
    });
  });

  describe('funding', () => {
    it('a sale moves the whole batch from world:manual into the liability', () => {
      given([generated])
        .when((state) =>
          fundVoucherBatch({ funding: 'SOLD', comment: 'paid in cash by the fair', transactionId: tx(1), at }, state),
        )
        .then([sold]);
    });

    it('a giveaway moves it from expense:promo, so the house carries the cost', () => {
      const [event] = fundVoucherBatch(
        { funding: 'GIVEN_AWAY', comment: 'launch party', transactionId: tx(2), at },
        fold(voucherBatchEvolution, [generated]),
      );
      expect(event.type).toBe('VoucherBatchGivenAway');
      expect(
        event.type !== 'VoucherBatchGenerated' && event.type !== 'VoucherCodeRedeemed' && event.data.transaction,
      ).toEqual({
        transactionId: tx(2),
        postings: [{ source: 'expense:promo', destination: 'liability:vouchers', amountMinor: 4500 }],
      });
    });

    it('a batch is funded once', () => {
      given([generated, sold])
        .when((state) => fundVoucherBatch({ funding: 'GIVEN_AWAY', comment: '', transactionId: tx(3), at }, state))
        .thenRejects('error.voucher.batch.already.funded');
    });

    it('an unknown batch is not found', () => {
      given([])
        .when((state) => fundVoucherBatch({ funding: 'SOLD', comment: '', transactionId: tx(3), at }, state))
        .thenRejects('error.voucher.batch.not.found');
    });
  });

  describe('redeeming', () => {
    it('credits the client from the liability and marks the code used, in one decision', () => {
      history = [generated, sold];
      const decided = redeem(1);
      expect(decided.batch).toEqual([redeemedBy(dana, 1, 7)]);
      expect(decided.wallet).toEqual([
        {
          type: 'VoucherRedeemed',
          data: {
            userUuid: dana,
            paymentId: 7,
            batchId,
            codeIndex: 1,
            amountMinor: 1500,
            transaction: {
              transactionId: tx(7),
              postings: [{ source: 'liability:vouchers', destination: `user:${dana}`, amountMinor: 1500 }],
            },
          },
        },
      ]);
      const wallet = decided.wallet.reduce(walletDecider.evolve, walletDecider.initialState());
      expect(wallet.balanceMinor).toBe(1500);
    });

    it('a code redeems once, ever: the same client or another one after it is refused', () => {
      history = [generated, sold, redeemedBy(omer, 1, 6)];
      given(history)
        .when(
          (state) =>
            redeemVoucher({ codeIndex: 1, userUuid: dana, paymentId: 7, transactionId: tx(7), at }, state).batch,
        )
        .thenRejects('error.voucher.code.already.redeemed');
      expect(() => redeem(1, omer)).toThrow();
    });

    it('a code of a batch neither sold nor given away does not redeem: its money is not in the liability', () => {
      given([generated])
        .when(
          (state) =>
            redeemVoucher({ codeIndex: 0, userUuid: dana, paymentId: 7, transactionId: tx(7), at }, state).batch,
        )
        .thenRejects('error.voucher.batch.not.funded');
    });

    it('the other codes of the batch still redeem', () => {
      history = [generated, sold, redeemedBy(omer, 1, 6)];
      expect(redeem(0).batch).toEqual([redeemedBy(dana, 0, 7)]);
    });
  });

  describe('what the batch owes', () => {
    it('is nothing before funding, the whole batch after, and less by each redemption', () => {
      expect(outstandingMinor(fold(voucherBatchEvolution, [generated])!)).toBe(0);
      expect(outstandingMinor(fold(voucherBatchEvolution, [generated, sold])!)).toBe(4500);
      expect(outstandingMinor(fold(voucherBatchEvolution, [generated, sold, redeemedBy(omer, 2, 6)])!)).toBe(3000);
    });

    it('always equals the liability the batch transactions leave', () => {
      history = [generated, sold];
      const redemption = redeem(2);
      const after = [...history, ...redemption.batch];
      const liabilityMinor =
        netChangeMinor(
          sold.type === 'VoucherBatchSold' && sold.data.transaction
            ? sold.data.transaction
            : { transactionId: '', postings: [] },
          'liability:vouchers',
        ) +
        redemption.wallet
          .map((event) =>
            event.type === 'VoucherRedeemed' ? netChangeMinor(event.data.transaction, 'liability:vouchers') : 0,
          )
          .reduce((sum, change) => sum + change, 0);
      expect(outstandingMinor(fold(voucherBatchEvolution, after)!)).toBe(liabilityMinor);
    });
  });
});
