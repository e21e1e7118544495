import { subscriptionStreamId, voucherBatchStreamId, walletStreamId } from '@kupa/proto';
import { fold } from '../../../kernel';
import { type ReplayableEvent, replayLedger } from './replay-ledger';
import {
  dayVoucherExtensionKey,
  fundVoucherBatch,
  generateVoucherBatch,
  redeemDayVoucher,
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

const dayBatchId = '66666666-6666-4666-8666-666666666666';
const extendedId = '77777777-7777-4777-8777-777777777777';
const startedId = '88888888-8888-4888-8888-888888888888';

/**
 * A given-away day batch of two 30-day codes: code 0 extended Dana's subscription, code 1 started a new one. The
 * subscription events are what the subscriptions context appends with each redemption (and other events around).
 */
function dayHistory(): ReplayableEvent[] {
  const batch: VoucherEvent[] = [];
  const daysOf = { days: 30, planId: '99999999-9999-4999-8999-999999999999', planName: 'Gold' };
  batch.push(
    ...generateVoucherBatch({ batchId: dayBatchId, label: 'gift', count: 2, amountMinor: 0, daysOf, at }, null),
  );
  batch.push(
    ...fundVoucherBatch(
      { funding: 'GIVEN_AWAY', comment: 'launch', transactionId: tx(3), at },
      fold(voucherBatchEvolution, batch),
    ),
  );
  batch.push(
    ...redeemDayVoucher(
      { codeIndex: 0, userUuid: dana, subscriptionId: extendedId, at },
      fold(voucherBatchEvolution, batch),
    ),
  );
  batch.push(
    ...redeemDayVoucher(
      { codeIndex: 1, userUuid: dana, subscriptionId: startedId, at },
      fold(voucherBatchEvolution, batch),
    ),
  );
  const batchEvents = batch.map((event, index) => ({
    streamId: voucherBatchStreamId(dayBatchId),
    streamVersion: index + 1,
    type: event.type,
    data: event.data,
  }));
  const extension = {
    streamId: subscriptionStreamId(extendedId),
    streamVersion: 3,
    type: 'SubscriptionExtended',
    data: {
      subscriptionId: extendedId,
      userUuid: dana,
      days: 30,
      reason: 'gift',
      source: 'VOUCHER',
      actorId: dana,
      batchId: null,
      voucherBatchId: dayBatchId,
      idempotencyKey: dayVoucherExtensionKey(dayBatchId, 0),
      previousEndDate: '2026-12-01T00:00:00.000Z',
      endDate: '2026-12-31T00:00:00.000Z',
      extendedAt: at.toISOString(),
    },
  };
  const staffExtension = {
    ...extension,
    streamVersion: 4,
    data: { ...extension.data, days: 2, source: 'STAFF', voucherBatchId: null, idempotencyKey: 'staff-1' },
  };
  const start = {
    streamId: subscriptionStreamId(startedId),
    streamVersion: 1,
    type: 'SubscriptionPurchased',
    data: {
      subscriptionId: startedId,
      userUuid: dana,
      voucher: { batchId: dayBatchId, codeIndex: 1, days: 30, label: 'gift' },
    },
  };
  const bought = { ...start, streamId: subscriptionStreamId(tx(9)), data: { subscriptionId: tx(9), userUuid: dana } };
  return [...batchEvents, extension, staffExtension, start, bought];
}

describe('replayLedger over day vouchers: each redeemed code against the days a subscription got', () => {
  const unmatched = (events: ReplayableEvent[]) =>
    replayLedger(events)
      .problems.filter((problem) => problem.kind === 'voucher.unmatched')
      .map((problem) => problem.message);

  it('matches an extension and a new subscription with their codes, and ignores other subscription events', () => {
    expect(replayLedger(dayHistory()).problems).toEqual([]);
  });

  it('reports a redeemed code whose extension or new subscription is missing', () => {
    const withoutExtension = dayHistory().filter((event) => event.type !== 'SubscriptionExtended');
    expect(unmatched(withoutExtension)).toEqual([`day code ${dayBatchId}:0 has no matching subscription days`]);
    const withoutStart = dayHistory().filter((event) => event.streamId !== subscriptionStreamId(startedId));
    expect(unmatched(withoutStart)).toEqual([`day code ${dayBatchId}:1 has no matching subscription days`]);
  });

  it('reports days given for a code the batch never recorded as redeemed, or other days than the code’s', () => {
    const events = dayHistory();
    const withoutRedemptions = events.filter((event) => event.type !== 'VoucherCodeRedeemed');
    expect(unmatched(withoutRedemptions).sort()).toEqual([
      `days of code ${dayBatchId}:0 were never redeemed`,
      `days of code ${dayBatchId}:1 were never redeemed`,
    ]);
    const otherDays = events.map((event) =>
      event.type === 'SubscriptionExtended' && (event.data as { source: string }).source === 'VOUCHER'
        ? { ...event, data: { ...(event.data as object), days: 31 } }
        : event,
    );
    expect(unmatched(otherDays)).toEqual([`day code ${dayBatchId}:0 has no matching subscription days`]);
  });
});
