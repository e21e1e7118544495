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
  balancesDigest: string;
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

/** sha256 of one `account<TAB>balance` line per account with a non-zero balance, in code-unit order. */
export function balancesDigest(balances: Readonly<Record<string, number>>): string {
  const hash = createHash('sha256');
  for (const account of Object.keys(balances).sort(byCodeUnit))
    if (balances[account] !== 0) hash.update(`${account}\t${balances[account]}\n`);
  return hash.digest('hex');
}

/** sha256 of one `stream<TAB>version<TAB>hash` line per stream, in code-unit order of the stream ids. */
export function headsDigest(heads: ReadonlyMap<string, StreamHead>): string {
  const hash = createHash('sha256');
  for (const streamId of [...heads.keys()].sort(byCodeUnit)) {
    const head = heads.get(streamId) as StreamHead;
    hash.update(`${streamId}\t${head.version}\t${head.hash}\n`);
  }
  return hash.digest('hex');
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
    }
  }
  return { latest: problems.length === 0 ? headers[headers.length - 1] : null, problems };
}
