import { voucherBatchStreamId, walletStreamId } from '@kupa/proto';
import { fold } from '../../../kernel';
import { type ReplayableEvent, replayLedger } from './replay-ledger';
import {
  fundVoucherBatch,
  generateVoucherBatch,
  redeemVoucher,
  voucherBatchEvolution,
  type VoucherEvent,
} from './voucher-batch.decider';
import type { WalletEvent } from './ledger.events';

const batchId = '44444444-4444-4444-8444-444444444444';
const dana = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-29T10:00:00.000Z');
const tx = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A generated, sold batch of two codes worth 20.00, one redeemed by Dana: stored as the pipeline stores it. */
function history(): ReplayableEvent[] {
  const batch: VoucherEvent[] = [];
  batch.push(...generateVoucherBatch({ batchId, label: 'fair', count: 2, amountMinor: 2000, at }, null));
  batch.push(
    ...fundVoucherBatch(
      { funding: 'SOLD', comment: 'cash', transactionId: tx(1), at },
      fold(voucherBatchEvolution, batch),
    ),
  );
  const redemption = redeemVoucher(
    { codeIndex: 0, userUuid: dana, paymentId: 5, transactionId: tx(2), at },
    fold(voucherBatchEvolution, batch),
  );
  batch.push(...redemption.batch);
  const batchEvents = batch.map((event, index) => ({
    streamId: voucherBatchStreamId(batchId),
    streamVersion: index + 1,
    type: event.type,
    data: event.data,
  }));
  const walletEvents = redemption.wallet.map((event: WalletEvent, index) => ({
    streamId: walletStreamId(dana),
    streamVersion: index + 1,
    type: event.type,
    data: event.data,
  }));
  return [...batchEvents, ...walletEvents];
}

describe('replayLedger over vouchers (kupa ledger verify)', () => {
  it('books the sale and the redemption and finds the liability equal to what the batch owes', () => {
    const replay = replayLedger(history());
    expect(replay.problems).toEqual([]);
    expect(replay.accountBalances['liability:vouchers']).toBe(2000);
    expect(replay.accountBalances['world:manual']).toBe(-4000);
    expect(replay.accountBalances[`user:${dana}`]).toBe(2000);
    expect(replay.voucherBatches[batchId]).toMatchObject({ funding: 'SOLD', count: 2 });
    expect([...replay.voucherBatches[batchId].redeemed]).toEqual([0]);
  });

  it('reports a credit whose code the batch never recorded as redeemed', () => {
    const events = history().filter((event) => event.type !== 'VoucherCodeRedeemed');
    const kinds = replayLedger(events).problems.map((problem) => problem.kind);
    expect(kinds).toContain('voucher.unmatched');
    expect(kinds).toContain('voucher.liability.mismatch');
  });

  it('reports a code the batch recorded twice', () => {
    const events = history();
    const redeemed = events.find((event) => event.type === 'VoucherCodeRedeemed')!;
    const twice = [...events.slice(0, 3), { ...redeemed, streamVersion: 4 }, ...events.slice(3)];
    expect(replayLedger(twice).problems.map((problem) => problem.kind)).toContain('voucher.invalid');
  });

  it('reports a funding that does not match the batch, even when its transaction balances', () => {
    const events = history().map((event) => {
      if (event.type !== 'VoucherBatchSold') return event;
      const data = event.data as { transaction: { postings: Array<{ amountMinor: number }> } };
      return {
        ...event,
        data: {
          ...data,
          transaction: { ...data.transaction, postings: [{ ...data.transaction.postings[0], amountMinor: 3000 }] },
        },
      };
    });
    const kinds = replayLedger(events).problems.map((problem) => problem.kind);
    expect(kinds).toContain('voucher.invalid');
    expect(kinds).toContain('voucher.liability.mismatch');
  });
});
