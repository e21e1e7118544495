import { LIMITS } from '@kupa/proto';
import { assert, DomainError } from '../../../kernel';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The longest period a statement covers (`LIMITS.statementPeriodMaxDays`), in milliseconds. */
export const STATEMENT_PERIOD_MAX_MS = LIMITS.statementPeriodMaxDays * DAY_MS;

/**
 * A statement's period is [from, to): it starts before it ends and spans at most `LIMITS.statementPeriodMaxDays`.
 * A reversed or empty period is the caller's mistake, answered with the field that holds it.
 */
export function checkStatementPeriod(from: Date, to: Date): void {
  if (from.getTime() >= to.getTime()) {
    throw new DomainError('error.validation.failed', {
      fields: [{ field: 'to', error: 'error.validation.range.reversed' }],
    });
  }
  if (to.getTime() - from.getTime() > STATEMENT_PERIOD_MAX_MS) {
    throw new DomainError('error.statement.period.too.long', { maxDays: LIMITS.statementPeriodMaxDays });
  }
}

/** The period's postings, counted before they are read: more than `LIMITS.statementPostingsMax` is refused. */
export function checkStatementPostingCount(count: number): void {
  if (count > LIMITS.statementPostingsMax) {
    throw new DomainError('error.statement.too.many.postings', { max: LIMITS.statementPostingsMax });
  }
}

/** One posting to the client's wallet, oldest first; `bookedBalanceAfterMinor` is the ledger's running balance. */
export interface StatementPosting {
  amountMinor: number;
  bookedBalanceAfterMinor: number;
}

export interface StatementTotals<P extends StatementPosting> {
  lines: Array<P & { balanceAfterMinor: number }>;
  openingMinor: number;
  closingMinor: number;
  creditsMinor: number;
  debitsMinor: number;
}

/**
 * The statement's arithmetic: each line's running balance is the opening balance plus every amount up to it, and the
 * closing balance is the last of them. The ledger booked a running balance with each posting; the two must agree,
 * and a disagreement is a bug in the ledger's read model, never something to show a client.
 */
export function statementOf<P extends StatementPosting>(
  openingMinor: number,
  postings: readonly P[],
): StatementTotals<P> {
  assert(postings.length <= LIMITS.statementPostingsMax, 'a statement holds at most statementPostingsMax postings');
  let balanceMinor = openingMinor;
  let creditsMinor = 0;
  let debitsMinor = 0;
  const lines = postings.map((posting) => {
    balanceMinor += posting.amountMinor;
    if (posting.amountMinor > 0) creditsMinor += posting.amountMinor;
    else debitsMinor -= posting.amountMinor;
    assert(
      balanceMinor === posting.bookedBalanceAfterMinor,
      `the running balance ${balanceMinor} differs from the booked ${posting.bookedBalanceAfterMinor}`,
    );
    return { ...posting, balanceAfterMinor: balanceMinor };
  });
  return { lines, openingMinor, closingMinor: balanceMinor, creditsMinor, debitsMinor };
}
