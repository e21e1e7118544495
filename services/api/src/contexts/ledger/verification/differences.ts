/** Where a difference was found: the replay's own checks, the hash chain, one read model, or a verify checkpoint. */
export type DifferenceSource =
  | 'replay'
  | 'hash-chain'
  | 'payments'
  | 'ledger_entries'
  | 'account_balances'
  | 'wallet_snapshots'
  | 'read-model'
  | 'checkpoint';

export interface LedgerDifference {
  source: DifferenceSource;
  /** What the difference is about: `payment 42`, `stream wallet-… v3`, `account user:…`. */
  subject: string;
  message: string;
  expected?: string;
  actual?: string;
}

/** Where the ledger's check reports what it finds; the store verifier keeps the first ones and counts them all. */
export interface DifferenceSink {
  add(difference: LedgerDifference): void;
  field(source: DifferenceSource, subject: string, field: string, expected: unknown, actual: unknown): void;
}

/** A difference sink that keeps the first `limit` differences with their details and counts them all. */
export class KeptDifferences implements DifferenceSink {
  readonly kept: LedgerDifference[] = [];
  count = 0;

  constructor(readonly limit: number) {}

  add(difference: LedgerDifference): void {
    this.count += 1;
    if (this.kept.length < this.limit) this.kept.push(difference);
  }

  /** Appends other differences after these, counting them all and keeping the first ones. */
  merge(other: { kept: readonly LedgerDifference[]; count: number }): void {
    for (const difference of other.kept) this.add(difference);
    this.count += other.count - other.kept.length;
  }

  field(source: DifferenceSource, subject: string, field: string, expected: unknown, actual: unknown): void {
    if (String(expected) === String(actual)) return;
    this.add({ source, subject, message: `${field} differs`, expected: String(expected), actual: String(actual) });
  }
}
