import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provisioning's tables. `provisioning_jobs` is the durable queue of calls to the streaming service: one row per
 * event that asked for one (`causation_event_id` is unique, so a replayed event never asks twice), run in order per
 * subscription, retried with backoff, finished DONE or FAILED. Parameters never hold a password: a job that needs
 * one asks `ProvisioningSecrets` when it runs. `outcome` is written once the service has answered for good, before
 * the outcome is reported, so a crash in between reports it again instead of calling the service again.
 *
 * `sandbox_streaming_accounts` and `sandbox_streaming_faults` are the built-in simulator's state (the simulated
 * service's own data, not Kupa's): kept in the database so that it survives restarts and all replicas share it.
 */
export class ProvisioningSchema1767800000000 implements MigrationInterface {
  name = 'ProvisioningSchema1767800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE provisioning_jobs (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL UNIQUE,
        subscription_id uuid NOT NULL,
        operation text NOT NULL
          CHECK (operation IN ('CREATE_ACCOUNT', 'EXTEND_ACCOUNT', 'CHANGE_LOGIN', 'CHANGE_PASSWORD', 'DISABLE_ACCOUNT')),
        parameters jsonb NOT NULL,
        causation_event_id bigint NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DONE', 'FAILED')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        outcome jsonb,
        created_at timestamptz NOT NULL,
        finished_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX provisioning_jobs_due ON provisioning_jobs (next_attempt_at, seq) WHERE status = 'PENDING'`,
    );
    await runner.query(
      `CREATE INDEX provisioning_jobs_subscription ON provisioning_jobs (subscription_id, seq) WHERE status = 'PENDING'`,
    );
    await runner.query(`
      CREATE TABLE sandbox_streaming_accounts (
        login text PRIMARY KEY,
        password_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_streaming_faults (
        id bigserial PRIMARY KEY,
        operation text NOT NULL,
        mode text NOT NULL,
        remaining integer NOT NULL CHECK (remaining >= 0)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE sandbox_streaming_faults`);
    await runner.query(`DROP TABLE sandbox_streaming_accounts`);
    await runner.query(`DROP TABLE provisioning_jobs`);
  }
}

/**
 * A job names the event that asked for it by the event's id (a UUID, docs/adr/0061) instead of its position, which a
 * restored backup hands out again; the jobs recorded before keep the position they were asked by, as text.
 */
export class ProvisioningCausedByEventIds1768400005900 implements MigrationInterface {
  name = 'ProvisioningCausedByEventIds1768400005900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE provisioning_jobs ALTER COLUMN causation_event_id TYPE text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE provisioning_jobs ALTER COLUMN causation_event_id TYPE bigint
         USING (CASE WHEN causation_event_id ~ '^[0-9]+$' THEN causation_event_id::bigint END)`,
    );
  }
}

/**
 * `seq` orders the jobs (the queue's `(next_attempt_at, seq)`, a subscription's lane, the attention queue) but nothing
 * needs it unique: it is a `bigserial`, and no job is inserted with a `seq` of its own. Its unique index cost an entry
 * per job inserted and per update that is not HOT (the lease, the DONE mark): issue 36, cut 3 in docs/benchmarks.md.
 * The order is read through `provisioning_jobs_due` and `provisioning_jobs_subscription`, which stay.
 */
export class ProvisioningJobsSeqNotUnique1772500013500 implements MigrationInterface {
  name = 'ProvisioningJobsSeqNotUnique1772500013500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE provisioning_jobs DROP CONSTRAINT provisioning_jobs_seq_key');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE provisioning_jobs ADD CONSTRAINT provisioning_jobs_seq_key UNIQUE (seq)');
  }
}
