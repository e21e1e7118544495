import { type LedgerAccount, type LedgerTransaction, type Posting } from '@kupa/proto';
import { assert } from '../../../platform/decider/decider';

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
