import type { DataSource } from 'typeorm';
import {
  checkLedgerReadModelsInWorker,
  KeptDifferences,
  type LedgerCheckCounts,
  type LedgerDifference,
} from '../../contexts/ledger';
import type { StreamHead } from '../../platform/event-store/hash-chain-continuation';
import { type HashChainReport, verifyStreamHashes } from '../../platform/event-store/hash-chain-verifier';
import type { InlineProjectionRegistry } from '../../platform/projections/inline-projection.registry';
import { ReadModelReplayCheck, type ReadModelReplayReport } from '../../platform/projections/read-model-replay-check';
import { type CheckpointWrite, writeCheckpoint } from './verify-checkpoint-store';

export type { LedgerDifference };

/** Differences kept with their details; beyond this only their number grows. */
export const VERIFY_DIFFERENCES_KEPT = 1000;

export interface LedgerVerification {
  ok: boolean;
  counts: {
    events: number;
    ledgerEvents: number;
    streams: number;
    transactions: number;
    payments: number;
    ledgerEntries: number;
    userAccounts: number;
    walletSnapshots: number;
    /** Rows of the other read models (users, notes, activity log) compared with their replay. */
    otherReadModelRows: number;
  };
  differenceCount: number;
  /** The first `VERIFY_DIFFERENCES_KEPT` differences, in the order found. */
  differences: LedgerDifference[];
  replayMs: number;
  totalMs: number;
  /** Where the time went, in milliseconds by phase (hash chains, the ledger's check, each other read model). */
  phasesMs: Record<string, number>;
  /** The checkpoint this verify wrote (ADR 0111), why it wrote none, or null when none was asked for or it failed. */
  checkpoint: CheckpointWrite | null;
}

export interface VerifyOptions {
  /** Record a checkpoint when nothing differs, for `--since-checkpoint` to continue from (ADR 0111). */
  writeCheckpoint?: boolean;
}

/** The commit position every event visible now is at or before (ADR 0061: positions become visible in order). */
export async function currentCommitPosition(reader: {
  query(sql: string): Promise<Array<{ position: string }>>;
}): Promise<string> {
  const rows = await reader.query('SELECT coalesce(max(commit_position), 0)::text AS position FROM event_commits');
  return rows[0].position;
}

/**
 * `kupa ledger verify` (docs/ARCHITECTURE.md, Operations), a check across every context, so it lives beside the
 * command line rather than in one context: every stream's hash chain (the event store), the ledger's read models
 * against the ledger's own replay (through the ledger's public check), and every other read model that declares
 * replay-checked tables against a replay of all events into shadow tables.
 *
 * The ledger check reads one REPEATABLE READ snapshot, so a server appending meanwhile causes no false alarm: the read
 * models are written in the same transactions as the events, and a snapshot sees both or neither.
 */
export class LedgerVerifier {
  /** The read models outside the ledger, compared with a replay of every event into shadow tables. */
  private readonly otherReadModels: ReadModelReplayCheck | null;

  constructor(
    private readonly dataSource: DataSource,
    /** Its projections that declare `replayChecked` tables are compared with a replay; none when absent. */
    projections: InlineProjectionRegistry | null = null,
  ) {
    this.otherReadModels = projections ? new ReadModelReplayCheck(dataSource, projections) : null;
  }

  /**
   * The three checks read separate snapshots and share nothing, so they run at once: the hash chains and the ledger's
   * replay each in a worker thread with its own connection, the replay into the copies on this thread, so that the
   * decoding and computing of all three spread over the machine's cores (ADR 0043).
   * Each keeps its own differences; the report lists them in a fixed order (hash chains, the ledger, the other read
   * models) whatever order they finish in.
   */
  async verify(options: VerifyOptions = {}): Promise<LedgerVerification> {
    const started = performance.now();
    const phasesMs: Record<string, number> = {};
    const chainDifferences = new KeptDifferences(VERIFY_DIFFERENCES_KEPT);
    const ledgerDifferences = new KeptDifferences(VERIFY_DIFFERENCES_KEPT);
    const readModelDifferences = new KeptDifferences(VERIFY_DIFFERENCES_KEPT);
    // Read before the checks open their snapshots, so every event at or before it is in each of them; the chains and
    // the balances are taken at this position, whatever each snapshot shows beyond it.
    const checkpointPosition = options.writeCheckpoint ? await currentCommitPosition(this.dataSource) : null;
    const [chain, ledger, otherReadModelRows] = await Promise.all([
      this.checkChains(chainDifferences, phasesMs, started, checkpointPosition),
      this.checkLedger(ledgerDifferences, phasesMs, checkpointPosition),
      this.compareOtherReadModels(readModelDifferences, phasesMs),
    ]);
    const differences = new KeptDifferences(VERIFY_DIFFERENCES_KEPT);
    for (const part of [chainDifferences, ledgerDifferences, readModelDifferences]) differences.merge(part);
    const { replayMs, ...ledgerCounts } = ledger.counts;
    const ok = differences.count === 0;
    let checkpoint: CheckpointWrite | null = null;
    if (ok && checkpointPosition !== null && chain.headsAtCheckpoint && ledger.balancesAtCheckpoint) {
      const { streamIds, versions, hashes } = chain.headsAtCheckpoint;
      const heads = new Map<string, StreamHead>();
      streamIds.forEach((streamId, index) => heads.set(streamId, { version: versions[index], hash: hashes[index] }));
      const writeStarted = performance.now();
      checkpoint = await writeCheckpoint(
        this.dataSource,
        {
          kind: 'FULL',
          commitPosition: checkpointPosition,
          eventsVerified: ledgerCounts.events,
          balances: ledger.balancesAtCheckpoint,
          heads,
          continues: null,
        },
        new Date(),
      );
      phasesMs.checkpointWrite = performance.now() - writeStarted;
    }
    return {
      ok,
      counts: { ...ledgerCounts, streams: chain.streamsChecked, otherReadModelRows },
      differenceCount: differences.count,
      differences: differences.kept,
      replayMs,
      totalMs: performance.now() - started,
      phasesMs,
      checkpoint,
    };
  }

  private async checkChains(
    differences: KeptDifferences,
    phasesMs: Record<string, number>,
    started: number,
    checkpointPosition: string | null,
  ): Promise<HashChainReport> {
    const chain = await verifyStreamHashes(this.dataSource, checkpointPosition);
    phasesMs.hashChains = performance.now() - started;
    this.reportChain(chain, differences);
    return chain;
  }

  private async checkLedger(
    differences: KeptDifferences,
    phasesMs: Record<string, number>,
    checkpointPosition: string | null,
  ): Promise<{ counts: LedgerCheckCounts; balancesAtCheckpoint: Record<string, number> | null }> {
    const started = performance.now();
    const ledger = await checkLedgerReadModelsInWorker(this.dataSource, differences, checkpointPosition);
    phasesMs.ledger = performance.now() - started;
    return ledger;
  }

  /** Every read model the ledger replay does not explain, against a replay of all events into shadow tables. */
  private async compareOtherReadModels(
    differences: KeptDifferences,
    phasesMs: Record<string, number>,
  ): Promise<number> {
    if (!this.otherReadModels) return 0;
    const started = performance.now();
    const report: ReadModelReplayReport = await this.otherReadModels.run();
    phasesMs.otherReadModelsReplay = report.replayMs;
    phasesMs.otherReadModels = performance.now() - started;
    for (const table of report.tables) phasesMs[`compare ${table.table}`] = table.compareMs;
    for (const mismatch of report.mismatches) {
      differences.add({
        source: 'read-model',
        subject: `${mismatch.table} ${mismatch.key}`,
        message:
          mismatch.side === 'missing'
            ? 'the replay makes this row; the read model lacks it or holds it otherwise'
            : 'the read model holds this row; the replay does not make it',
      });
    }
    for (const table of report.tables) {
      const named = report.mismatches.filter((mismatch) => mismatch.table === table.table).length;
      const unnamed = table.missing + table.extra - named;
      if (unnamed > 0)
        differences.add({
          source: 'read-model',
          subject: table.table,
          message: `${unnamed} more rows differ from the replay`,
        });
    }
    return report.tables.reduce((sum, table) => sum + table.rows, 0);
  }

  private reportChain(chain: HashChainReport, differences: KeptDifferences): void {
    for (const problem of chain.problems) {
      differences.add({
        source: 'hash-chain',
        subject: `stream ${problem.streamId} v${problem.streamVersion}`,
        message: `${problem.kind}: ${problem.message}`,
      });
    }
  }
}
