import fc from 'fast-check';
import { creditsUser, type PaymentRecordedData, userAccount } from '@kupa/proto';
import { DomainError, fold } from '../../../kernel';
import { compareStreamIds } from '../../../platform/event-store/event-rows';
import {
  type LedgerEvent,
  type PaymentEvent,
  paymentStreamId,
  type WalletEvent,
  walletStreamId,
} from './ledger.events';
import { moneyEffectOf, paymentDecider } from './payment.decider';
import { type ReplayableEvent, replayLedger, startLedgerReplay } from './replay-ledger';
import { manualCounterAccount, walletDecider } from './wallet.decider';

const USERS = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
];
const ADMIN = '99999999-9999-4999-8999-999999999999';

type Step =
  | { kind: 'deposit' | 'withdraw'; user: number; amountMinor: number; correction: boolean }
  | { kind: 'transfer'; from: number; to: number; amountMinor: number }
  | { kind: 'status'; pick: number; status: 'SUCCESS' | 'FAILED' | 'REJECTED'; confirm: boolean };

const amount = fc.integer({ min: 1, max: 50_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('deposit' as const, 'withdraw' as const),
    user: fc.nat(2),
    amountMinor: amount,
    correction: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(2), to: fc.nat(2), amountMinor: amount }),
  fc.record({
    kind: fc.constant('status' as const),
    pick: fc.nat(),
    status: fc.constantFrom('SUCCESS' as const, 'FAILED' as const, 'REJECTED' as const),
    confirm: fc.boolean(),
  }),
);

/**
 * The commands of the ledger run through the deciders alone, appended the way the store appends them (one
 * operation's streams in stream-id order). Rejections append nothing, exactly like a rolled-back transaction.
 */
function simulate(steps: Step[]): { events: ReplayableEvent[]; rejections: number } {
  const streams = new Map<string, Array<{ type: string; data: unknown }>>();
  const events: ReplayableEvent[] = [];
  let nextPaymentId = 1;
  let nextTransaction = 1;
  let rejections = 0;
  const transactionId = () => `00000000-0000-4000-8000-${String(nextTransaction++).padStart(12, '0')}`;
  const history = (streamId: string) => streams.get(streamId) ?? [];
  const wallet = (user: string) => fold(walletDecider, history(walletStreamId(user)) as WalletEvent[]);
  const payment = (paymentId: number) => fold(paymentDecider, history(paymentStreamId(paymentId)) as PaymentEvent[]);
  const commit = (appends: Array<[string, LedgerEvent[]]>) => {
    for (const [streamId, appended] of [...appends].sort(([left], [right]) => compareStreamIds(left, right))) {
      const stream = streams.get(streamId) ?? [];
      for (const event of appended) {
        stream.push(event);
        events.push({ streamId, streamVersion: stream.length, type: event.type, data: event.data });
      }
      streams.set(streamId, stream);
    }
  };
  const manualPayment = (
    paymentId: number,
    user: string,
    type: 'DEPOSIT' | 'WITHDRAW',
    amountMinor: number,
    correction: boolean,
  ): PaymentRecordedData => ({
    paymentId,
    userUuid: user,
    userEmail: `${user.slice(0, 4)}@example.com`,
    type,
    method: 'MANUAL_TRANSFER',
    aggregator: 'MANUAL',
    status: 'SUCCESS',
    amountMinor,
    currency: 'USD',
    comment: 'simulated',
    publicNote: null,
    counterAccount: manualCounterAccount(correction),
    correction,
    transferId: null,
    senderProfileId: null,
    recipientProfileId: null,
    discountPercent: 0,
    createdAt: '2026-03-01T00:00:00.000Z',
  });

  for (const current of steps) {
    try {
      if (current.kind === 'deposit' || current.kind === 'withdraw') {
        const user = USERS[current.user];
        const paymentId = nextPaymentId++;
        const common = {
          userUuid: user,
          paymentId,
          amountMinor: current.amountMinor,
          correction: current.correction,
          reason: 'r',
          transactionId: transactionId(),
        };
        const walletEvents = walletDecider.decide(
          current.kind === 'deposit'
            ? { type: 'RecordManualDeposit', ...common }
            : { type: 'RecordWithdrawal', ...common },
          wallet(user),
        );
        const recorded = manualPayment(
          paymentId,
          user,
          current.kind === 'deposit' ? 'DEPOSIT' : 'WITHDRAW',
          current.amountMinor,
          current.correction,
        );
        commit([
          [walletStreamId(user), walletEvents],
          [paymentStreamId(paymentId), paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, null)],
        ]);
      } else if (current.kind === 'transfer') {
        const [from, to] = [USERS[current.from], USERS[current.to]];
        const outPaymentId = nextPaymentId++;
        const inPaymentId = nextPaymentId++;
        const transfer = {
          transferId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
          outPaymentId,
          inPaymentId,
          amountMinor: current.amountMinor,
          transactionId: transactionId(),
        };
        const sent = walletDecider.decide(
          { type: 'SendTransfer', userUuid: from, recipientUuid: to, ...transfer },
          wallet(from),
        );
        const received = walletDecider.decide(
          { type: 'ReceiveTransfer', userUuid: to, senderUuid: from, ...transfer },
          wallet(to),
        );
        const base = {
          method: 'BALANCE',
          aggregator: 'INTERNAL',
          correction: false,
          transferId: transfer.transferId,
        } as const;
        const outRecorded = {
          ...manualPayment(outPaymentId, from, 'WITHDRAW', current.amountMinor, false),
          ...base,
          type: 'TRANSFER_OUT' as const,
          counterAccount: userAccount(to),
        };
        const inRecorded = {
          ...manualPayment(inPaymentId, to, 'DEPOSIT', current.amountMinor, false),
          ...base,
          type: 'TRANSFER_IN' as const,
          counterAccount: userAccount(from),
        };
        commit([
          [walletStreamId(from), sent],
          [walletStreamId(to), received],
          [paymentStreamId(outPaymentId), paymentDecider.decide({ type: 'RecordPayment', payment: outRecorded }, null)],
          [paymentStreamId(inPaymentId), paymentDecider.decide({ type: 'RecordPayment', payment: inRecorded }, null)],
        ]);
      } else if (current.kind === 'status') {
        if (nextPaymentId === 1) continue;
        const paymentId = (current.pick % (nextPaymentId - 1)) + 1;
        const state = payment(paymentId);
        const paymentEvents = paymentDecider.decide(
          {
            type: 'ChangePaymentStatus',
            paymentId,
            status: current.status,
            changedAt: '2026-03-02T00:00:00.000Z',
            publicNote: null,
          },
          state,
        );
        if (paymentEvents.length === 0 || state === null) continue;
        const appends: Array<[string, LedgerEvent[]]> = [[paymentStreamId(paymentId), paymentEvents]];
        const effect = moneyEffectOf(state.status, current.status);
        if (effect) {
          const walletEvents = walletDecider.decide(
            {
              type: 'SettlePaymentStatus',
              userUuid: state.userUuid,
              paymentId,
              status: current.status,
              effect,
              userCredited: creditsUser(state.type),
              counterAccount: state.counterAccount,
              amountMinor: state.amountMinor,
              transactionId: transactionId(),
              confirmNegativeBalance: current.confirm,
              actorUuid: ADMIN,
            },
            wallet(state.userUuid),
          );
          appends.push([walletStreamId(state.userUuid), walletEvents]);
        }
        commit(appends);
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      rejections += 1;
    }
  }
  return { events, rejections };
}

describe('replayLedger', () => {
  it('finds every invariant intact after any sequence of ledger commands', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const { events } = simulate(steps);
        const replay = replayLedger(events);
        expect(replay.problems).toEqual([]);
        // Every transaction sums to zero, and so does the whole ledger.
        const perTransaction = new Map<string, number>();
        for (const entry of replay.entries)
          perTransaction.set(entry.transactionId, (perTransaction.get(entry.transactionId) ?? 0) + entry.amountMinor);
        expect([...perTransaction.values()].every((sum) => sum === 0)).toBe(true);
        expect(Object.values(replay.accountBalances).reduce((sum, balance) => sum + balance, 0)).toBe(0);
        for (const user of USERS) {
          const balance = replay.accountBalances[userAccount(user)] ?? 0;
          expect(replay.walletSnapshots[walletStreamId(user)]?.state.balanceMinor ?? 0).toBe(balance);
          // A negative balance exists only behind an event that records who confirmed it.
          if (balance < 0) {
            expect(
              events.some(
                (event) =>
                  event.streamId === walletStreamId(user) &&
                  (event.data as { overdraftConfirmedBy?: string | null }).overdraftConfirmedBy === ADMIN,
              ),
            ).toBe(true);
          }
          const entries = replay.entries.filter((entry) => entry.account === userAccount(user));
          expect(entries.at(-1)?.balanceAfterMinor ?? 0).toBe(balance);
        }
        expect(
          replay.entries
            .filter((entry) => !entry.account.startsWith('user:'))
            .every((entry) => entry.balanceAfterMinor === null),
        ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('reports tampered histories', () => {
    const { events } = simulate([
      { kind: 'deposit', user: 0, amountMinor: 1000, correction: false },
      { kind: 'transfer', from: 0, to: 1, amountMinor: 400 },
      { kind: 'withdraw', user: 1, amountMinor: 100, correction: false },
    ]);
    expect(replayLedger(events).problems).toEqual([]);
    const kinds = (tampered: ReplayableEvent[]) => replayLedger(tampered).problems.map((problem) => problem.kind);

    expect(kinds(events.filter((event) => event.type !== 'TransferReceived'))).toContain('transfer.unmatched');
    const deposit = events.find((event) => event.type === 'ManualDepositRecorded') as ReplayableEvent;
    const walletLength = events.filter((event) => event.streamId === deposit.streamId).length;
    const repeated = [...events, { ...deposit, streamVersion: walletLength + 1 }];
    expect(kinds(repeated)).toEqual(expect.arrayContaining(['transaction.duplicate']));
    expect(kinds(repeated)).not.toContain('stream.version.gap');
    const overdrawn = events.map((event) =>
      event.type === 'WithdrawalRecorded'
        ? {
            ...event,
            data: {
              ...(event.data as object),
              amountMinor: 9000,
              transaction: {
                transactionId: 'ffffffff-0000-4000-8000-000000000000',
                postings: [{ source: userAccount(USERS[1]), destination: 'world:manual', amountMinor: 9000 }],
              },
            },
          }
        : event,
    );
    expect(kinds(overdrawn)).toContain('balance.negative.unconfirmed');
    const skipped = events.filter((event) => event !== deposit);
    expect(kinds(skipped)).toContain('stream.version.gap');
    const invalid = events.map((event) =>
      event.type === 'ManualDepositRecorded'
        ? {
            ...event,
            data: {
              ...(event.data as object),
              transaction: {
                transactionId: 'eeeeeeee-0000-4000-8000-000000000000',
                postings: [{ source: 'world:manual', destination: userAccount(USERS[0]), amountMinor: -5 }],
              },
            },
          }
        : event,
    );
    expect(kinds(invalid)).toContain('posting.invalid');
  });

  it('gives the same result fed one event at a time, and refuses events after it has finished', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.integer({ min: 0, max: 100 }), (steps, tamperAt) => {
        const { events } = simulate(steps);
        // A dropped event makes the histories disagree in places, so the problems are compared too.
        const history = events.filter((_, index) => index !== tamperAt);
        const replayer = startLedgerReplay();
        for (const event of history) replayer.apply(event);
        expect(replayer.finish()).toEqual(replayLedger(history));
        expect(() => replayer.apply(history[0] ?? events[0])).toThrow(/after the replay finished/);
        expect(() => replayer.finish()).toThrow(/finished twice/);
      }),
      { numRuns: 100 },
    );
  });

  it('ignores events of other contexts', () => {
    const replay = replayLedger([{ streamId: 'user-1', streamVersion: 1, type: 'UserRegistered', data: {} }]);
    expect(replay).toMatchObject({ eventCount: 0, problems: [], entries: [] });
  });
});
