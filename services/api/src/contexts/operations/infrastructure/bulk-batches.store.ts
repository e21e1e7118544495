import {
  type BulkAction,
  type BulkBatch,
  type BulkBatchStartedData,
  type BulkEvent,
  type BulkTargetKind,
  minorToAmount,
} from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../platform/auth';

export interface FrozenTarget {
  id: string;
  label: string;
}

/** A started batch's row and its frozen targets, written with `BulkBatchStarted` in the same transaction. */
export async function insertBulkBatch(
  manager: EntityManager,
  started: BulkBatchStartedData,
  actor: Actor,
  targets: readonly FrozenTarget[],
): Promise<void> {
  await manager.query(
    `INSERT INTO bulk_batches (id, action, target_kind, filter, reason, public_note, amount_minor, days, actor_uuid,
       actor_email, actor_name, actor_role, status, target_count, started_at, next_attempt_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, 'RUNNING', $13, $14, $14)`,
    [
      started.batchId,
      started.action,
      started.targetKind,
      JSON.stringify(started.filter),
      started.reason,
      started.publicNote,
      started.amountMinor,
      started.days,
      actor.userUuid,
      actor.email,
      actor.name,
      actor.role,
      started.targetCount,
      started.startedAt,
    ],
  );
  await manager.query(
    `INSERT INTO bulk_batch_targets (batch_id, position, target_id, label)
     SELECT $1, target.position, target.id, target.label
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS target (id, label, position)`,
    [started.batchId, targets.map((target) => target.id), targets.map((target) => target.label)],
  );
}

/** The settlements a command decided, on the target rows and the batch's counts, in the command's transaction. */
export async function recordSettlements(manager: EntityManager, batchId: string, events: readonly BulkEvent[]) {
  let done = 0;
  let failed = 0;
  for (const event of events) {
    if (event.type === 'BulkTargetDone') {
      done += 1;
      await manager.query(
        `UPDATE bulk_batch_targets SET outcome = 'DONE', result_ref = $3, settled_at = $4
          WHERE batch_id = $1 AND target_id = $2`,
        [batchId, event.data.targetId, event.data.resultRef, event.data.doneAt],
      );
    } else if (event.type === 'BulkTargetFailed') {
      failed += 1;
      await manager.query(
        `UPDATE bulk_batch_targets SET outcome = 'FAILED', error = $3, settled_at = $4
          WHERE batch_id = $1 AND target_id = $2`,
        [batchId, event.data.targetId, event.data.error, event.data.failedAt],
      );
    }
  }
  const completed = events.find((event) => event.type === 'BulkBatchCompleted');
  await manager.query(
    `UPDATE bulk_batches SET done_count = done_count + $2, failed_count = failed_count + $3,
        status = CASE WHEN $4::timestamptz IS NULL THEN status ELSE 'COMPLETED' END,
        completed_at = coalesce($4::timestamptz, completed_at)
      WHERE id = $1`,
    [batchId, done, failed, completed ? completed.data.completedAt : null],
  );
}

interface BatchRow {
  id: string;
  action: BulkAction;
  target_kind: BulkTargetKind;
  filter: Record<string, unknown>;
  reason: string;
  public_note: string | null;
  amount_minor: string | null;
  days: number | null;
  status: 'RUNNING' | 'COMPLETED';
  target_count: number;
  done_count: number;
  failed_count: number;
  started_at: Date;
  actor_name: string;
  actor_email: string;
  completed_at: Date | null;
}

const BATCH_COLUMNS = `id, action, target_kind, filter, reason, public_note, amount_minor, days, status, target_count,
  done_count, failed_count, started_at, actor_name, actor_email, completed_at`;

function batchOf(row: BatchRow): BulkBatch {
  return {
    id: row.id,
    action: row.action,
    targetKind: row.target_kind,
    filter: row.filter,
    reason: row.reason,
    publicNote: row.public_note,
    amount: row.amount_minor === null ? null : minorToAmount(Number(row.amount_minor)),
    days: row.days,
    status: row.status,
    targetCount: row.target_count,
    doneCount: row.done_count,
    failedCount: row.failed_count,
    startedAt: row.started_at.toISOString(),
    startedBy: row.actor_name || row.actor_email,
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

export async function findBulkBatch(manager: EntityManager, batchId: string): Promise<BulkBatch | null> {
  const rows: BatchRow[] = await manager.query(`SELECT ${BATCH_COLUMNS} FROM bulk_batches WHERE id = $1`, [batchId]);
  return rows[0] ? batchOf(rows[0]) : null;
}

/** The newest batches first: a console's list, bounded. */
export async function listBulkBatches(manager: EntityManager, limit: number): Promise<BulkBatch[]> {
  const rows: BatchRow[] = await manager.query(
    `SELECT ${BATCH_COLUMNS} FROM bulk_batches ORDER BY started_at DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(batchOf);
}

export interface TargetResultRow {
  position: number;
  target_id: string;
  label: string;
  outcome: 'DONE' | 'FAILED' | null;
  result_ref: string | null;
  error: string | null;
  settled_at: Date | null;
}

export async function targetResultsOf(manager: EntityManager, batchId: string): Promise<TargetResultRow[]> {
  return manager.query(
    `SELECT position, target_id, label, outcome, result_ref, error, settled_at FROM bulk_batch_targets
      WHERE batch_id = $1 ORDER BY position`,
    [batchId],
  );
}
