import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk operations (docs/adr/0090-bulk-operations.md). Side tables written with the batch's events in the same
 * transactions: `bulk_batches` is the batch, its progress and its job row (the background work substrate's `attempts`,
 * `next_attempt_at`, `last_error`: a batch is due until it completes, so a runner killed mid-batch leaves it to the
 * next claim); `bulk_batch_targets` freezes the targets at the start, in order, each with its outcome once settled.
 */
export class BulkBatchTables1770200009000 implements MigrationInterface {
  name = 'BulkBatchTables1770200009000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE bulk_batches (
      id uuid PRIMARY KEY,
      action text NOT NULL CHECK (action IN ('BLOCK', 'UNBLOCK', 'GOODWILL_CREDIT', 'ADD_DAYS')),
      target_kind text NOT NULL CHECK (target_kind IN ('CLIENT', 'SUBSCRIPTION')),
      filter jsonb NOT NULL,
      reason text NOT NULL,
      public_note text,
      amount_minor bigint CHECK (amount_minor > 0),
      days integer CHECK (days > 0),
      actor_uuid uuid NOT NULL,
      actor_email text NOT NULL,
      actor_name text NOT NULL,
      actor_role text NOT NULL,
      status text NOT NULL CHECK (status IN ('RUNNING', 'COMPLETED')),
      target_count integer NOT NULL CHECK (target_count > 0),
      done_count integer NOT NULL DEFAULT 0,
      failed_count integer NOT NULL DEFAULT 0,
      started_at timestamptz NOT NULL,
      completed_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      last_error text
    )`);
    await runner.query(`CREATE INDEX bulk_batches_started ON bulk_batches (started_at DESC, id)`);
    await runner.query(`CREATE INDEX bulk_batches_running ON bulk_batches (next_attempt_at) WHERE status = 'RUNNING'`);
    await runner.query(`CREATE TABLE bulk_batch_targets (
      batch_id uuid NOT NULL REFERENCES bulk_batches (id),
      position integer NOT NULL,
      target_id text NOT NULL,
      label text NOT NULL,
      outcome text CHECK (outcome IN ('DONE', 'FAILED')),
      result_ref text,
      error text,
      settled_at timestamptz,
      PRIMARY KEY (batch_id, position),
      UNIQUE (batch_id, target_id)
    )`);
    await runner.query(
      `CREATE INDEX bulk_batch_targets_pending ON bulk_batch_targets (batch_id, position) WHERE outcome IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE bulk_batch_targets');
    await runner.query('DROP TABLE bulk_batches');
  }
}
