import type { DataSource } from 'typeorm';
import { KeptDifferences, type LedgerDifference, startLedgerIncrement } from '../../contexts/ledger';
import { databaseUrlOf, type SqlReader, withReadOnlySnapshot } from '../../platform/database/read-only-snapshot';
import { commitWindow } from '../../platform/event-store/event-rows';
import { startChainContinuation } from '../../platform/event-store/hash-chain-continuation';
import { CheckpointBuckets } from './checkpoint-buckets';
import { currentCommitPosition, VERIFY_DIFFERENCES_KEPT } from './ledger-verifier';
import { type CheckpointHeader, digestOfBuckets, verifyCheckpointChain } from './verify-checkpoint';
import {
  type CheckpointWrite,
  loadBucketDigests,
  loadCheckpointHeaders,
  type SinceCheckpointToWrite,
  writeCheckpoint,
} from './verify-checkpoint-store';

/** Events read per round trip after the checkpoint; bounds each query's memory. */
const SINCE_READ_BATCH_ROWS = 5000;

export interface SinceCheckpointVerification {
  /** `no-checkpoint`: no FULL checkpoint exists to continue; a full `kupa ledger verify` writes the first. */
  outcome: 'verified' | 'failed' | 'no-checkpoint';
  ok: boolean;
  /** The checkpoint continued from, when there was one to use. */
  from: { checkpointId: number; commitPosition: string; hash: string } | null;
  /** The commit position this verify checked up to. */
  commitPosition: string | null;
  counts: {
    /** Events after the checkpoint: the only ones read, hashed and replayed. */
    eventsReplayed: number;
    ledgerEvents: number;
    transactions: number;
    streamsTouched: number;
    userAccounts: number;
    walletSnapshots: number;
    /** Bucket digests read: one short row per bucket, all of them (ADR 0122). */
    bucketDigestsRead: number;
    /** Buckets whose rows were read, because the window's events touch a stream or an account in them. */
    bucketsTouched: number;
    /** Head and balance rows read: those of the touched buckets, and those alone. */
    headRowsRead: number;
    balanceRowsRead: number;
    /** What the checkpoint this verify wrote (or would have) changed: rows and bucket digests. */
    headRowsWritten: number;
    balanceRowsWritten: number;
    bucketsWritten: number;
  };
  differenceCount: number;
  differences: LedgerDifference[];
  totalMs: number;
  phasesMs: Record<string, number>;
  /** The checkpoint this verify wrote, or why it wrote none; null when it failed. */
  checkpoint: CheckpointWrite | null;
}

interface RangeRow {
  commit_position: string;
  global_position: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  hash: string;
}

/**
 * `kupa ledger verify --since-checkpoint` (ADR 0111): continues the newest checkpoint whose chain holds, reading only
 * the events committed after it, in one REPEATABLE READ snapshot. Their hash chains must continue from the
 * checkpoint's heads, and the ledger's replay, started from its balances, must end at `account_balances` for the
 * accounts it moved. It reads and writes only the checkpoint rows of the buckets the window touches, each checked
 * against its bucket's digest (ADR 0122). What it leaves to the full verify is in ADRs 0111 and 0122.
 */
export class SinceCheckpointVerifier {
  constructor(private readonly dataSource: DataSource) {}

  async verify(): Promise<SinceCheckpointVerification> {
    const started = performance.now();
    const phasesMs: Record<string, number> = {};
    const differences = new KeptDifferences(VERIFY_DIFFERENCES_KEPT);
    const counts = {
      eventsReplayed: 0,
      ledgerEvents: 0,
      transactions: 0,
      streamsTouched: 0,
      userAccounts: 0,
      walletSnapshots: 0,
      bucketDigestsRead: 0,
      bucketsTouched: 0,
      headRowsRead: 0,
      balanceRowsRead: 0,
      headRowsWritten: 0,
      balanceRowsWritten: 0,
      bucketsWritten: 0,
    };
    const report = (
      outcome: SinceCheckpointVerification['outcome'],
      from: CheckpointHeader | null,
      commitPosition: string | null,
      checkpoint: CheckpointWrite | null,
    ): SinceCheckpointVerification => ({
      outcome,
      ok: outcome === 'verified',
      from: from && { checkpointId: from.checkpointId, commitPosition: from.commitPosition, hash: from.hash },
      commitPosition,
      counts,
      differenceCount: differences.count,
      differences: differences.kept,
      totalMs: performance.now() - started,
      phasesMs,
      checkpoint,
    });

    const checked = await withReadOnlySnapshot(
      databaseUrlOf(this.dataSource),
      'kupa verify since checkpoint',
      (reader) => this.checkWithin(reader, differences, counts, phasesMs),
    );
    if (checked.kind === 'no-checkpoint') return report('no-checkpoint', null, null, null);
    if (differences.count > 0 || checked.kind === 'broken')
      return report('failed', checked.from, checked.kind === 'checked' ? checked.next.commitPosition : null, null);
    const writeStarted = performance.now();
    const written = await writeCheckpoint(this.dataSource, checked.next, new Date());
    phasesMs.checkpointWrite = performance.now() - writeStarted;
    return report('verified', checked.from, checked.next.commitPosition, written);
  }

  private async checkWithin(
    reader: SqlReader,
    differences: KeptDifferences,
    counts: SinceCheckpointVerification['counts'],
    phasesMs: Record<string, number>,
  ): Promise<
    | { kind: 'no-checkpoint' }
    | { kind: 'broken'; from: CheckpointHeader | null }
    | { kind: 'checked'; from: CheckpointHeader; next: SinceCheckpointToWrite }
  > {
    let phaseStarted = performance.now();
    const headers = await loadCheckpointHeaders(reader);
    const chain = verifyCheckpointChain(headers);
    for (const message of chain.problems) differences.add({ source: 'checkpoint', subject: 'checkpoints', message });
    if (chain.problems.length > 0) return { kind: 'broken', from: null };
    const from = chain.latest;
    if (from === null) return { kind: 'no-checkpoint' };
    // Every bucket's digests (one short row each), against the header's digests over them; the rows of a bucket
    // are read only when the window touches it, and checked then against its own digest (ADR 0122).
    const digests = await loadBucketDigests(reader, from.bucketCount);
    counts.bucketDigestsRead = digests.rows;
    const subject = `checkpoint ${from.checkpointId}`;
    differences.field('checkpoint', subject, 'balances digest', from.balancesDigest, digestOfBuckets(digests.balances));
    differences.field('checkpoint', subject, 'heads digest', from.headsDigest, digestOfBuckets(digests.heads));
    phasesMs.loadCheckpoint = performance.now() - phaseStarted;
    if (differences.count > 0) return { kind: 'broken', from };
    const state = new CheckpointBuckets(from.bucketCount, digests);

    phaseStarted = performance.now();
    let bucketsMs = 0;
    const until = await currentCommitPosition(reader);
    const chains = startChainContinuation((streamId) => state.head(streamId));
    const ledger = startLedgerIncrement({
      accountBalance: (account) => state.balance(account),
      streamVersion: (streamId) => state.head(streamId)?.version ?? 0,
    });
    let after = from.commitPosition;
    for (;;) {
      const rows: RangeRow[] = await reader.query(
        `SELECT window_commits.commit_position::text AS commit_position,
                events.global_position::text AS global_position, events.stream_id, events.stream_version, events.type,
                events.data, events.metadata, events.hash
           FROM ${commitWindow('$1::bigint', '$3::int', '$2::bigint')}
          ORDER BY window_commits.commit_position, events.global_position`,
        [after, until, SINCE_READ_BATCH_ROWS],
      );
      counts.eventsReplayed += rows.length;
      // The batch's streams and the accounts its ledger events move, loaded before the batch is replayed.
      const bucketsStarted = performance.now();
      const problems = await state.load(
        reader,
        rows.flatMap((row) => [row.stream_id, ...ledger.accountsOf(row)]),
      );
      bucketsMs += performance.now() - bucketsStarted;
      for (const problem of problems)
        differences.field(
          'checkpoint',
          subject,
          `${problem.part} digest of bucket ${problem.bucket}`,
          problem.expected,
          problem.actual,
        );
      if (problems.length > 0) {
        this.countBuckets(counts, state);
        return { kind: 'broken', from };
      }
      for (const row of rows) {
        chains.apply(row);
        ledger.apply(row);
      }
      if (rows.length < SINCE_READ_BATCH_ROWS) break;
      after = rows[rows.length - 1].commit_position;
    }
    phasesMs.loadBuckets = bucketsMs;
    phasesMs.replay = performance.now() - phaseStarted;

    phaseStarted = performance.now();
    const chained = await chains.finish(reader);
    for (const problem of chained.problems)
      differences.add({
        source: 'hash-chain',
        subject: `stream ${problem.streamId} v${problem.streamVersion}`,
        message: `${problem.kind}: ${problem.message}`,
      });
    const ledgerResult = await ledger.finish(reader, differences);
    phasesMs.compare = performance.now() - phaseStarted;
    counts.ledgerEvents = ledgerResult.ledgerEvents;
    counts.transactions = ledgerResult.transactions;
    counts.streamsTouched = chained.heads.size;
    counts.userAccounts = ledgerResult.userAccounts;
    counts.walletSnapshots = ledgerResult.walletSnapshots;

    this.countBuckets(counts, state);
    const next = state.next(chained.heads, ledgerResult.accountBalances);
    counts.headRowsWritten = next.movedHeads.size;
    counts.balanceRowsWritten = Object.keys(next.movedBalances).length;
    counts.bucketsWritten = next.changedBuckets.size;
    return {
      kind: 'checked',
      from,
      next: {
        kind: 'SINCE',
        commitPosition: until,
        eventsVerified: counts.eventsReplayed,
        continues: from.checkpointId,
        bucketCount: from.bucketCount,
        ...next,
      },
    };
  }

  private countBuckets(counts: SinceCheckpointVerification['counts'], state: CheckpointBuckets): void {
    counts.bucketsTouched = state.bucketsTouched;
    counts.headRowsRead = state.headRowsRead;
    counts.balanceRowsRead = state.balanceRowsRead;
  }
}
