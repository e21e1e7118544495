import { type LedgerAccount, type LedgerTransaction, type Posting } from '@kupa/proto';
import { assert } from '../../../kernel';

/** A posting moves a positive whole number of cents between two different accounts. */
export function isValidPosting(posting: Posting): boolean {
  return Number.isSafeInteger(posting.amountMinor) && posting.amountMinor > 0 && posting.source !== posting.destination;
}

/** A transaction of one posting; amounts are checked here because a bad one is a bug, not a user's mistake. */
export function singlePosting(
  transactionId: string,
  source: LedgerAccount,
  destination: LedgerAccount,
  amountMinor: number,
): LedgerTransaction {
  const posting = { source, destination, amountMinor };
  assert(
    isValidPosting(posting),
    `posting ${JSON.stringify(posting)} must move a positive amount between two accounts`,
  );
  return { transactionId, postings: [posting] };
}

/** What a transaction does to one account: credits add, debits subtract. */
export function netChangeMinor(transaction: LedgerTransaction, account: string): number {
  let change = 0;
  for (const posting of transaction.postings) {
    if (posting.destination === account) change += posting.amountMinor;
    if (posting.source === account) change -= posting.amountMinor;
  }
  return change;
}

/** A posting as one of its two accounts books it. */
export interface PostingSide {
  account: string;
  counterAccount: string;
  /** Positive credits the account, negative debits it. */
  amountMinor: number;
}

/**
 * The two ledger entries a posting books, the debited source first, each naming the other account as its counter
 * account. The ledger-entries projection and `replayLedger` both book through this, so that a replay produces the
 * same rows in the same order as the read model it verifies.
 */
export function postingSides(posting: Posting): [PostingSide, PostingSide] {
  return [
    { account: posting.source, counterAccount: posting.destination, amountMinor: -posting.amountMinor },
    { account: posting.destination, counterAccount: posting.source, amountMinor: posting.amountMinor },
  ];
}
