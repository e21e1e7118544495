/** Random ledger histories run through the deciders alone, for the property specs of the replay and of statements. */
import fc from 'fast-check';
import { creditsUser, type PaymentRecordedData, userAccount } from '@kupa/proto';
import { DomainError, fold } from '../../kernel';
import { compareStreamIds } from '../../platform/event-store/event-rows';
import {
  type LedgerEvent,
  type PaymentEvent,
  paymentStreamId,
  type WalletEvent,
  walletStreamId,
} from './domain/ledger.events';
import { moneyEffectOf, paymentDecider } from './domain/payment.decider';
import type { ReplayableEvent } from './domain/replay-ledger';
import { manualCounterAccount, walletDecider } from './domain/wallet.decider';

export const USERS = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
];
export const ADMIN = '99999999-9999-4999-8999-999999999999';

/** When the simulated history starts, and how far apart its operations are. */
export const SIMULATION_START_MS = Date.parse('2026-03-01T00:00:00.000Z');
export const SIMULATION_STEP_MS = 60 * 60 * 1000;

export type Step =
  | { kind: 'deposit' | 'withdraw'; user: number; amountMinor: number; correction: boolean }
  | { kind: 'transfer'; from: number; to: number; amountMinor: number }
  | { kind: 'status'; pick: number; status: 'SUCCESS' | 'FAILED' | 'REJECTED'; confirm: boolean };

const amount = fc.integer({ min: 1, max: 50_000 });
export const step: fc.Arbitrary<Step> = fc.oneof(
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
export function simulate(steps: Step[]): { events: ReplayableEvent[]; rejections: number } {
  const streams = new Map<string, Array<{ type: string; data: unknown }>>();
  const events: ReplayableEvent[] = [];
  let nextPaymentId = 1;
  let nextTransaction = 1;
  let rejections = 0;
  const transactionId = () => `00000000-0000-4000-8000-${String(nextTransaction++).padStart(12, '0')}`;
  const history = (streamId: string) => streams.get(streamId) ?? [];
  const wallet = (user: string) => fold(walletDecider, history(walletStreamId(user)) as WalletEvent[]);
  const payment = (paymentId: number) => fold(paymentDecider, history(paymentStreamId(paymentId)) as PaymentEvent[]);
  let operations = 0;
  const commit = (appends: Array<[string, LedgerEvent[]]>) => {
    // Each operation an hour after the one before, stamped on its events as the pipeline stamps them.
    const occurredAt = new Date(SIMULATION_START_MS + operations++ * SIMULATION_STEP_MS).toISOString();
    for (const [streamId, appended] of [...appends].sort(([left], [right]) => compareStreamIds(left, right))) {
      const stream = streams.get(streamId) ?? [];
      for (const event of appended) {
        stream.push(event);
        events.push({
          streamId,
          streamVersion: stream.length,
          type: event.type,
          data: event.data,
          metadata: { occurredAt },
        });
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
