import fc from 'fast-check';
import { LIMITS, userAccount } from '@kupa/proto';
import { DomainError } from '../../../kernel';
import { SIMULATION_START_MS, SIMULATION_STEP_MS, simulate, step, USERS } from '../ledger-history.fixtures';
import { type ReplayedEntry, replayLedger } from './replay-ledger';
import { checkStatementPeriod, checkStatementPostingCount, STATEMENT_PERIOD_MAX_MS, statementOf } from './statement';

/** The ledger's as-of, as the statement query asks the read model: the running balance of the last posting before. */
function bookedBalanceBefore(entries: readonly ReplayedEntry[], account: string, instantMs: number): number {
  const before = entries.filter((entry) => entry.account === account && Date.parse(entry.occurredAt!) < instantMs);
  return before.length === 0 ? 0 : before[before.length - 1].balanceAfterMinor!;
}

function refusal(action: () => void): DomainError {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a statement over random ledger histories', () => {
  it("opens at the replay's balance, adds every posting and closes at the replay's balance at the period's end", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 60 }),
        fc.nat(2),
        fc.nat(70),
        fc.nat(70),
        (steps, user, fromStep, length) => {
          const { events } = simulate(steps);
          // `kupa ledger verify` replays the same way: every posting with the running balance it must have booked.
          const replay = replayLedger(events);
          expect(replay.problems).toEqual([]);
          const account = userAccount(USERS[user]);
          const fromMs = SIMULATION_START_MS + fromStep * SIMULATION_STEP_MS - 1;
          const toMs = fromMs + (length + 1) * SIMULATION_STEP_MS;
          checkStatementPeriod(new Date(fromMs), new Date(toMs));
          const postings = replay.entries
            .filter((entry) => entry.account === account)
            .filter((entry) => Date.parse(entry.occurredAt!) >= fromMs && Date.parse(entry.occurredAt!) < toMs)
            .map((entry) => ({ amountMinor: entry.amountMinor, bookedBalanceAfterMinor: entry.balanceAfterMinor! }));
          const opening = bookedBalanceBefore(replay.entries, account, fromMs);
          const statement = statementOf(opening, postings);
          // opening + Σ postings = closing, credits and debits apart.
          const sum = postings.reduce((total, posting) => total + posting.amountMinor, 0);
          expect(statement.closingMinor).toBe(opening + sum);
          expect(statement.creditsMinor - statement.debitsMinor).toBe(sum);
          // The closing balance is the ledger's as-of at `to`; a period that runs past the history closes at the
          // balance the replay ends with.
          expect(statement.closingMinor).toBe(bookedBalanceBefore(replay.entries, account, toMs));
          if (toMs > SIMULATION_START_MS + steps.length * SIMULATION_STEP_MS) {
            expect(statement.closingMinor).toBe(replay.accountBalances[account] ?? 0);
          }
          expect(statement.lines.map((line) => line.balanceAfterMinor)).toEqual(
            postings.map((posting) => posting.bookedBalanceAfterMinor),
          );
        },
      ),
    );
  });

  it('takes two consecutive periods as one: the first closes where the second opens', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.nat(2), fc.nat(45), (steps, user, cutStep) => {
        const replay = replayLedger(simulate(steps).events);
        const account = userAccount(USERS[user]);
        const cutMs = SIMULATION_START_MS + cutStep * SIMULATION_STEP_MS;
        const endMs = SIMULATION_START_MS + 50 * SIMULATION_STEP_MS;
        const between = (fromMs: number, toMs: number) =>
          statementOf(
            bookedBalanceBefore(replay.entries, account, fromMs),
            replay.entries
              .filter((entry) => entry.account === account)
              .filter((entry) => Date.parse(entry.occurredAt!) >= fromMs && Date.parse(entry.occurredAt!) < toMs)
              .map((entry) => ({ amountMinor: entry.amountMinor, bookedBalanceAfterMinor: entry.balanceAfterMinor! })),
          );
        const first = between(SIMULATION_START_MS, cutMs);
        const second = between(cutMs, endMs);
        const whole = between(SIMULATION_START_MS, endMs);
        expect(first.closingMinor).toBe(second.openingMinor);
        expect(second.closingMinor).toBe(whole.closingMinor);
        expect(first.lines.length + second.lines.length).toBe(whole.lines.length);
      }),
    );
  });
});

describe('a statement period', () => {
  const from = new Date('2026-05-01T00:00:00Z');

  it('runs forward, up to the longest period', () => {
    expect(() => checkStatementPeriod(from, new Date(from.getTime() + STATEMENT_PERIOD_MAX_MS))).not.toThrow();
  });

  it('refuses an empty or reversed period with the field that holds it', () => {
    for (const to of [from, new Date('2026-04-30T00:00:00Z')]) {
      expect(refusal(() => checkStatementPeriod(from, to))).toMatchObject({
        code: 'error.validation.failed',
        details: { fields: [{ field: 'to', error: 'error.validation.range.reversed' }] },
      });
    }
  });

  it('refuses a period longer than the limit, saying the limit', () => {
    const to = new Date(from.getTime() + STATEMENT_PERIOD_MAX_MS + 1);
    expect(refusal(() => checkStatementPeriod(from, to))).toMatchObject({
      code: 'error.statement.period.too.long',
      details: { maxDays: LIMITS.statementPeriodMaxDays },
    });
  });

  it('refuses more postings than a statement holds', () => {
    expect(() => checkStatementPostingCount(LIMITS.statementPostingsMax)).not.toThrow();
    expect(refusal(() => checkStatementPostingCount(LIMITS.statementPostingsMax + 1))).toMatchObject({
      code: 'error.statement.too.many.postings',
      details: { max: LIMITS.statementPostingsMax },
    });
  });

  it('fails loudly when a running balance differs from the one the ledger booked', () => {
    expect(() => statementOf(100, [{ amountMinor: 50, bookedBalanceAfterMinor: 149 }])).toThrow(/differs/);
  });
});
