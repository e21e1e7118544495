import type { UserRole } from '@kupa/proto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { assert } from '../../../kernel';
import type { RequestContext } from '../../../platform/auth';
import type { Clock } from '../../../platform/clock';
import type { CommandPipeline } from '../../../platform/commands';
import { JobQueue, type JobQueueKind, PollingLoop } from '../../../platform/jobs';
import type { BackgroundLoop } from '../../../platform/workers';
import { type SettleTarget, settleBulkTargets } from '../domain/bulk-batch.decider';
import { bulkBatchRef } from '../infrastructure/bulk-batch-streams';
import { recordSettlements } from '../infrastructure/bulk-batches.store';
import type { BulkTargetActions, RunnableBatch } from './bulk-target-actions';

export interface BulkBatchRunnerOptions {
  pollIntervalMs: number;
  /** Targets acted on, then settled in one command, at a time. */
  chunkSize: number;
  /**
   * Targets of a chunk acted on at once. Each target's command locks its own streams (a subscription, a client), so
   * they do not wait for each other; a batch's time is then about targets × one command's latency ÷ this.
   */
  targetsAtOnce: number;
  /** The pause after each chunk: the room a batch leaves to other traffic on a small machine. */
  pauseBetweenChunksMs: number;
  /** How long a claimed batch belongs to its runner without a renewal (every chunk renews it). */
  leaseMs: number;
  onError?: (error: unknown) => void;
}

interface BatchRow {
  id: string;
  attempts: number;
  action: RunnableBatch['action'];
  reason: string;
  public_note: string | null;
  amount_minor: string | null;
  days: number | null;
  actor_uuid: string;
  actor_email: string;
  actor_name: string;
  actor_role: UserRole;
}

function bulkBatchQueue(options: BulkBatchRunnerOptions): JobQueueKind {
  return {
    name: 'bulk-batches',
    table: 'bulk_batches',
    idType: 'uuid',
    columns: `job.id::text AS id, job.attempts, job.action, job.reason, job.public_note, job.amount_minor, job.days,
      job.actor_uuid, job.actor_email, job.actor_name, job.actor_role`,
    pending: `job.status = 'RUNNING'`,
    order: 'job.next_attempt_at, job.started_at',
    leaseMs: options.leaseMs,
    backoff: { baseMs: options.pollIntervalMs, maxMs: 60_000 },
    maxAttempts: null,
  };
}

/**
 * Runs started batches on the background work substrate (docs/adr/0067-one-substrate-for-background-work.md): a
 * batch is a leased job row, due until it completes. A run takes the batch's unsettled targets a chunk at a time, acts
 * on each through its context's door, settles the chunk in one command, renews the lease and pauses. A runner killed
 * anywhere leaves the batch due again when the lease lapses; the next run starts from the targets still unsettled, and
 * a target acted on but not yet settled is acted on again harmlessly (each action is keyed by batch and target).
 */
export class BulkBatchRunner implements BackgroundLoop {
  readonly name = 'bulk-batches';
  private readonly loop: PollingLoop;
  private readonly queue: JobQueue<BatchRow>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly pipeline: CommandPipeline,
    private readonly actions: BulkTargetActions,
    private readonly clock: Clock,
    private readonly options: BulkBatchRunnerOptions,
  ) {
    assert(options.targetsAtOnce >= 1 && options.targetsAtOnce <= options.chunkSize, 'targets at once within a chunk');
    this.loop = new PollingLoop((stopped) => this.runDue(stopped), options);
    this.queue = new JobQueue(dataSource, clock, bulkBatchQueue(options));
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due work now rather than after the poll interval: work was committed in this process. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs every due batch, one at a time; returns how many completed. For the loop and tests. */
  runDue(stopped: () => boolean = () => false): Promise<number> {
    return this.queue.runPass(1, stopped, { run: (row) => this.run(row, stopped) });
  }

  private async run(row: BatchRow, stopped: () => boolean): Promise<boolean> {
    const batch: RunnableBatch = {
      id: row.id,
      action: row.action,
      reason: row.reason,
      publicNote: row.public_note,
      amountMinor: row.amount_minor === null ? null : Number(row.amount_minor),
      days: row.days,
      actor: { userUuid: row.actor_uuid, email: row.actor_email, name: row.actor_name, role: row.actor_role },
    };
    try {
      for (;;) {
        const pending: Array<{ target_id: string }> = await this.dataSource.query(
          `SELECT target_id FROM bulk_batch_targets WHERE batch_id = $1 AND outcome IS NULL ORDER BY position LIMIT $2`,
          [batch.id, this.options.chunkSize],
        );
        if (pending.length === 0) return true;
        const settlements: SettleTarget[] = [];
        for (let start = 0; start < pending.length; start += this.options.targetsAtOnce) {
          const group = pending.slice(start, start + this.options.targetsAtOnce);
          const outcomes = await Promise.all(
            group.map(async ({ target_id: targetId }) => ({
              targetId,
              ...(await this.actions.perform(batch, targetId)),
            })),
          );
          for (const outcome of outcomes) settlements.push({ ...outcome, at: this.clock.now() });
        }
        await this.settle(batch, settlements);
        if (stopped()) {
          // Due again at once for whichever runner looks next, rather than after the lease.
          await this.dataSource.query('UPDATE bulk_batches SET next_attempt_at = $2 WHERE id = $1', [
            batch.id,
            this.clock.now(),
          ]);
          return false;
        }
        await this.dataSource.query('UPDATE bulk_batches SET next_attempt_at = $2 WHERE id = $1', [
          batch.id,
          new Date(this.clock.now().getTime() + this.options.leaseMs),
        ]);
        if (this.options.pauseBetweenChunksMs > 0) await sleep(this.options.pauseBetweenChunksMs);
      }
    } catch (error) {
      this.options.onError?.(error);
      await this.queue.retryLater(batch.id, row.attempts, error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** A chunk's outcomes as events on the batch's stream, with its rows, in one transaction. */
  private async settle(batch: RunnableBatch, settlements: readonly SettleTarget[]): Promise<void> {
    const context: RequestContext = { actor: batch.actor, ip: null, correlationId: batch.id };
    await this.pipeline.run({
      context,
      streams: {
        batch: bulkBatchRef(
          batch.id,
          settlements.map((settlement) => settlement.targetId),
        ),
      },
      decide: (loaded) => ({ events: { batch: settleBulkTargets(settlements, loaded.batch.state) }, result: null }),
      alongside: (tx, decision) => recordSettlements(tx.manager, batch.id, decision.events.batch ?? []),
    });
  }
}
