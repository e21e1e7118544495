import { canonicalJson } from '@kupa/proto';
import { createHash } from 'node:crypto';
import type { StreamHead } from '../../platform/event-store/hash-chain-continuation';

/**
 * A verified checkpoint (ADR 0111): a verify found no difference up to `commitPosition` and recorded where the
 * ledger stood there. `FULL` ones were written by a whole-history verify, `SINCE` ones by a verify that continued the
 * previous checkpoint.
 */
export type CheckpointKind = 'FULL' | 'SINCE';

/** The row of `ledger_verify_checkpoints`: what its hash covers, the hash it chains to and its own. */
export interface CheckpointHeader {
  checkpointId: number;
  kind: CheckpointKind;
  commitPosition: string;
  /** ISO instant. */
  createdAt: string;
  eventsVerified: number;
  /** How many buckets the state rows are digested in (ADR 0122): chosen by the newest FULL checkpoint. */
  bucketCount: number;
  /** sha256 over the buckets' balances digests, in bucket order. */
  balancesDigest: string;
  /** sha256 over the buckets' heads digests, in bucket order. */
  headsDigest: string;
  previousHash: string | null;
  hash: string;
}

/** What a checkpoint holds beside its header: every account's balance and every stream's head at its position. */
export interface CheckpointState {
  balances: Record<string, number>;
  heads: Map<string, StreamHead>;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function byCodeUnit(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The fewest buckets a FULL checkpoint chooses, and the rows it aims to put in one (ADR 0122). */
export const MIN_BUCKET_COUNT = 256;
export const ROWS_PER_BUCKET = 8;

/** The bucket count a FULL checkpoint of `rows` heads or balances (the larger) chooses: a power of two, at least 256. */
export function bucketCountFor(rows: number): number {
  let count = MIN_BUCKET_COUNT;
  while (count * ROWS_PER_BUCKET < rows) count *= 2;
  return count;
}

/**
 * The bucket a stream's head or an account's balance lies in: the first four bytes of sha256 of its key, modulo the
 * bucket count. Stable (it depends on the key alone) and spread evenly, whoever chose the keys.
 */
export function bucketOf(key: string, bucketCount: number): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % bucketCount;
}

/** sha256 of one `account<TAB>balance` line per account with a non-zero balance, in code-unit order: one bucket's. */
export function bucketBalancesDigest(balances: Iterable<readonly [string, number]>): string {
  const hash = createHash('sha256');
  const sorted = [...balances].sort(([left], [right]) => byCodeUnit(left, right));
  for (const [account, balance] of sorted) if (balance !== 0) hash.update(`${account}\t${balance}\n`);
  return hash.digest('hex');
}

/** sha256 of one `stream<TAB>version<TAB>hash` line per stream, in code-unit order of the stream ids: one bucket's. */
export function bucketHeadsDigest(heads: Iterable<readonly [string, StreamHead]>): string {
  const hash = createHash('sha256');
  const sorted = [...heads].sort(([left], [right]) => byCodeUnit(left, right));
  for (const [streamId, head] of sorted) hash.update(`${streamId}\t${head.version}\t${head.hash}\n`);
  return hash.digest('hex');
}

/** A header's digest: sha256 over its buckets' digests, one line each, in bucket order. */
export function digestOfBuckets(bucketDigests: readonly string[]): string {
  const hash = createHash('sha256');
  for (const digest of bucketDigests) hash.update(`${digest}\n`);
  return hash.digest('hex');
}

/** Splits keyed rows into `bucketCount` buckets (`bucketOf`). */
export function intoBuckets<Value>(
  rows: Iterable<readonly [string, Value]>,
  bucketCount: number,
): Array<Array<[string, Value]>> {
  const buckets: Array<Array<[string, Value]>> = Array.from({ length: bucketCount }, () => []);
  for (const [key, value] of rows) buckets[bucketOf(key, bucketCount)].push([key, value]);
  return buckets;
}

/** Every bucket's balances digest (`bucketBalancesDigest`), in bucket order. */
export function bucketBalancesDigests(balances: Readonly<Record<string, number>>, bucketCount: number): string[] {
  return intoBuckets(Object.entries(balances), bucketCount).map(bucketBalancesDigest);
}

/** Every bucket's heads digest (`bucketHeadsDigest`), in bucket order. */
export function bucketHeadsDigests(heads: ReadonlyMap<string, StreamHead>, bucketCount: number): string[] {
  return intoBuckets(heads, bucketCount).map(bucketHeadsDigest);
}

/** The balances digest a header holds: over the buckets' digests (ADR 0122); zero balances are left out. */
export function balancesDigest(
  balances: Readonly<Record<string, number>>,
  bucketCount: number = MIN_BUCKET_COUNT,
): string {
  return digestOfBuckets(bucketBalancesDigests(balances, bucketCount));
}

/** The heads digest a header holds: over the buckets' digests (ADR 0122). */
export function headsDigest(heads: ReadonlyMap<string, StreamHead>, bucketCount: number = MIN_BUCKET_COUNT): string {
  return digestOfBuckets(bucketHeadsDigests(heads, bucketCount));
}

/**
 * A checkpoint's own hash: sha256 of the canonical JSON of everything in its row but its id and the hash itself, the
 * previous checkpoint's hash included, so that editing any field of any checkpoint breaks its link and every later one.
 */
export function checkpointHash(header: Omit<CheckpointHeader, 'checkpointId' | 'hash'>): string {
  return sha256(
    canonicalJson({
      kind: header.kind,
      commitPosition: header.commitPosition,
      createdAt: header.createdAt,
      eventsVerified: header.eventsVerified,
      bucketCount: header.bucketCount,
      balancesDigest: header.balancesDigest,
      headsDigest: header.headsDigest,
      previousHash: header.previousHash,
    }),
  );
}

export interface CheckpointChainVerdict {
  /** The newest checkpoint when the chain from the newest FULL one to it holds; null when there is none to use. */
  latest: CheckpointHeader | null;
  /** What breaks the chain, one line per broken checkpoint; empty when it holds. */
  problems: string[];
}

/**
 * Judges the checkpoints (in id order) that a since-checkpoint verify would build on: the newest FULL one and every
 * one after it. Each must hash to its stored hash, chain to the one before it, and not stand at an earlier position.
 * What came before the newest FULL checkpoint no longer matters: that verify re-proved the whole history.
 */
export function verifyCheckpointChain(headers: readonly CheckpointHeader[]): CheckpointChainVerdict {
  let anchor = -1;
  for (let index = headers.length - 1; index >= 0; index -= 1)
    if (headers[index].kind === 'FULL') {
      anchor = index;
      break;
    }
  if (anchor < 0) return { latest: null, problems: [] };
  const problems: string[] = [];
  for (let index = anchor; index < headers.length; index += 1) {
    const header = headers[index];
    const name = `checkpoint ${header.checkpointId}`;
    if (checkpointHash(header) !== header.hash) problems.push(`${name}: its fields do not match its hash`);
    if (index > anchor) {
      const previous = headers[index - 1];
      if (header.previousHash !== previous.hash)
        problems.push(`${name}: does not chain to checkpoint ${previous.checkpointId}`);
      if (BigInt(header.commitPosition) < BigInt(previous.commitPosition))
        problems.push(`${name}: stands before checkpoint ${previous.checkpointId}`);
      // A SINCE checkpoint moved rows within its predecessor's buckets: it cannot have chosen another count.
      if (header.bucketCount !== previous.bucketCount)
        problems.push(`${name}: does not keep the bucket count of checkpoint ${previous.checkpointId}`);
    }
  }
  return { latest: problems.length === 0 ? headers[headers.length - 1] : null, problems };
}
