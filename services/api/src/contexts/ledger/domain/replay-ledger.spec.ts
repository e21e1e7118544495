import fc from 'fast-check';
import { userAccount } from '@kupa/proto';
import { ADMIN, simulate, step, USERS } from '../ledger-history.fixtures';
import { accountsReplayReads, type ReplayableEvent, replayLedger, startLedgerReplay } from './replay-ledger';
import { walletStreamId } from './ledger.events';

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

  it('continued from the balances and versions at any commit boundary, ends where the whole replay ends (ADR 0111)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(), (steps, cut) => {
        const { events } = simulate(steps);
        // A transfer's two events are one commit: a checkpoint never stands between them.
        const boundaries = [0];
        let open = 0;
        events.forEach((event, index) => {
          if (event.type === 'TransferSent' || event.type === 'TransferReceived') open = open === 0 ? 1 : 0;
          if (open === 0) boundaries.push(index + 1);
        });
        const at = boundaries[cut % boundaries.length];
        const before = replayLedger(events.slice(0, at));
        const versions = new Map<string, number>();
        for (const event of events.slice(0, at)) versions.set(event.streamId, event.streamVersion);
        // The replay asks only for the accounts `accountsReplayReads` names for the window (ADR 0122).
        const named = new Set(events.slice(at).flatMap((event) => accountsReplayReads(event)));
        const asked: string[] = [];
        const continued = startLedgerReplay({
          accountBalance: (account) => {
            asked.push(account);
            return before.accountBalances[account] ?? 0;
          },
          streamVersion: (streamId) => versions.get(streamId) ?? 0,
        });
        for (const event of events.slice(at)) continued.apply(event);
        const after = continued.finish();
        expect(asked.filter((account) => !named.has(account))).toEqual([]);
        expect(new Set(asked).size).toBe(asked.length);
        const whole = replayLedger(events);
        // A status change of a payment recorded before the cut is the one thing a window cannot judge.
        expect(after.problems.filter((problem) => problem.kind !== 'payment.unknown')).toEqual([]);
        const nonZero = (balances: Record<string, number>) =>
          Object.fromEntries(Object.entries(balances).filter(([, balance]) => balance !== 0));
        // It holds the accounts the window moved; the others keep the checkpoint's balance.
        expect(nonZero({ ...before.accountBalances, ...after.accountBalances })).toEqual(
          nonZero(whole.accountBalances),
        );
        for (const [streamId, snapshot] of Object.entries(after.walletSnapshots))
          expect(snapshot).toEqual(whole.walletSnapshots[streamId]);
      }),
      { numRuns: 200 },
    );
  });

  it('continued from a checkpoint, judges an overdraft against the balance the checkpoint holds', () => {
    const { events } = simulate([
      { kind: 'deposit', user: 0, amountMinor: 1000, correction: false },
      { kind: 'withdraw', user: 0, amountMinor: 600, correction: false },
    ]);
    const wallet = events.filter((event) => event.streamId === walletStreamId(USERS[0]));
    const payout = wallet[wallet.length - 1];
    expect(payout.type).toBe('WithdrawalRecorded');
    const problemsFrom = (balanceMinor: number) => {
      const continued = startLedgerReplay({
        accountBalance: (account) =>
          ({ [userAccount(USERS[0])]: balanceMinor, 'cash:bank': -balanceMinor })[account] ?? 0,
        streamVersion: (streamId) => (streamId === payout.streamId ? payout.streamVersion - 1 : 0),
      });
      continued.apply(payout);
      return continued.finish().problems.map((problem) => problem.kind);
    };
    expect(problemsFrom(1000)).toEqual([]);
    // The checkpoint says the wallet held less than the payout took: the window's booking overdraws it.
    expect(problemsFrom(500)).toContain('balance.negative.unconfirmed');
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
