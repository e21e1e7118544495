import type { SqlReader } from '../../platform/database/read-only-snapshot';
import type { StreamHead } from '../../platform/event-store/hash-chain-continuation';
import { type BucketDigests, loadStateBuckets } from './verify-checkpoint-store';
import { bucketBalancesDigest, bucketHeadsDigest, bucketOf, digestOfBuckets } from './verify-checkpoint';

interface LoadedBucket {
  heads: Map<string, StreamHead>;
  balances: Map<string, number>;
}

/** A bucket whose rows do not match its stored digest. */
export interface BucketProblem {
  bucket: number;
  part: 'heads' | 'balances';
  expected: string;
  actual: string;
}

/**
 * The newest checkpoint's state as a since-checkpoint verify sees it (ADR 0122): every bucket's stored digests (whose
 * digest over them the caller has checked against the header), and the rows of the buckets the window touches,
 * loaded when first needed and each checked against its bucket's stored digest. Rows of other buckets are never read.
 */
export class CheckpointBuckets {
  private readonly bucketByKey = new Map<string, number>();
  private readonly loaded = new Map<number, LoadedBucket>();
  headRowsRead = 0;
  balanceRowsRead = 0;

  constructor(
    private readonly bucketCount: number,
    private readonly stored: { heads: readonly string[]; balances: readonly string[] },
  ) {}

  get bucketsTouched(): number {
    return this.loaded.size;
  }

  bucketOf(key: string): number {
    let bucket = this.bucketByKey.get(key);
    if (bucket === undefined) {
      bucket = bucketOf(key, this.bucketCount);
      this.bucketByKey.set(key, bucket);
    }
    return bucket;
  }

  /** Loads the buckets of `keys` (stream ids and accounts) not loaded yet; answers those whose rows fail their digest. */
  async load(reader: SqlReader, keys: Iterable<string>): Promise<BucketProblem[]> {
    const wanted = new Set<number>();
    for (const key of keys) {
      const bucket = this.bucketOf(key);
      if (!this.loaded.has(bucket)) wanted.add(bucket);
    }
    if (wanted.size === 0) return [];
    const buckets = [...wanted].sort((left, right) => left - right);
    const rows = await loadStateBuckets(reader, buckets);
    this.headRowsRead += rows.heads.length;
    this.balanceRowsRead += rows.balances.length;
    for (const bucket of buckets) this.loaded.set(bucket, { heads: new Map(), balances: new Map() });
    // Filed by the bucket stored beside them: a row moved to another bucket is missing from its own bucket's lines.
    for (const row of rows.heads) this.loaded.get(row.bucket)?.heads.set(row.streamId, row.head);
    for (const row of rows.balances) this.loaded.get(row.bucket)?.balances.set(row.account, row.balanceMinor);
    const problems: BucketProblem[] = [];
    for (const bucket of buckets) {
      const { heads, balances } = this.loaded.get(bucket) as LoadedBucket;
      const headsDigest = bucketHeadsDigest(heads);
      if (headsDigest !== this.stored.heads[bucket])
        problems.push({ bucket, part: 'heads', expected: this.stored.heads[bucket], actual: headsDigest });
      const balancesDigest = bucketBalancesDigest(balances);
      if (balancesDigest !== this.stored.balances[bucket])
        problems.push({ bucket, part: 'balances', expected: this.stored.balances[bucket], actual: balancesDigest });
    }
    return problems;
  }

  private bucketLoaded(key: string): LoadedBucket {
    const bucket = this.loaded.get(this.bucketOf(key));
    // A key the window needs was not named before its events were replayed: a fault of this code, not of the data.
    if (!bucket) throw new Error(`checkpoint bucket of ${key} was not loaded before it was needed`);
    return bucket;
  }

  /** The stream's head at the checkpoint; undefined when it had none (a stream begun after it). */
  head(streamId: string): StreamHead | undefined {
    return this.bucketLoaded(streamId).heads.get(streamId);
  }

  /** The account's balance at the checkpoint (zero when it holds no row: zero balances are not kept). */
  balance(account: string): number {
    return this.bucketLoaded(account).balances.get(account) ?? 0;
  }

  /**
   * What a SINCE checkpoint after the window writes: the moved heads, the balances that changed, the new digests of
   * the buckets that changed and the header's digests over every bucket's, the untouched ones as stored.
   */
  next(
    movedHeads: ReadonlyMap<string, StreamHead>,
    balancesAfter: Readonly<Record<string, number>>,
  ): {
    movedHeads: Map<string, StreamHead>;
    movedBalances: Record<string, number>;
    changedBuckets: Map<number, BucketDigests>;
    headsDigest: string;
    balancesDigest: string;
  } {
    const changed = new Set<number>();
    const heads = new Map<string, StreamHead>();
    for (const [streamId, head] of movedHeads) {
      const before = this.head(streamId);
      if (before?.version === head.version && before.hash === head.hash) continue;
      heads.set(streamId, head);
      this.bucketLoaded(streamId).heads.set(streamId, head);
      changed.add(this.bucketOf(streamId));
    }
    const balances: Record<string, number> = {};
    for (const [account, balanceMinor] of Object.entries(balancesAfter)) {
      if (this.balance(account) === balanceMinor) continue;
      balances[account] = balanceMinor;
      const bucket = this.bucketLoaded(account);
      if (balanceMinor === 0) bucket.balances.delete(account);
      else bucket.balances.set(account, balanceMinor);
      changed.add(this.bucketOf(account));
    }
    const headDigests = [...this.stored.heads];
    const balanceDigests = [...this.stored.balances];
    const changedBuckets = new Map<number, BucketDigests>();
    for (const bucket of changed) {
      const rows = this.loaded.get(bucket) as LoadedBucket;
      const digests = {
        headsDigest: bucketHeadsDigest(rows.heads),
        balancesDigest: bucketBalancesDigest(rows.balances),
      };
      headDigests[bucket] = digests.headsDigest;
      balanceDigests[bucket] = digests.balancesDigest;
      changedBuckets.set(bucket, digests);
    }
    return {
      movedHeads: heads,
      movedBalances: balances,
      changedBuckets,
      headsDigest: digestOfBuckets(headDigests),
      balancesDigest: digestOfBuckets(balanceDigests),
    };
  }
}
