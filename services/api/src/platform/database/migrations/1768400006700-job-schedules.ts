import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring jobs (the sweeps) run on a schedule row each, claimed like a queued job
 * (docs/adr/0067-one-substrate-for-background-work.md): the next run, the claim that holds it while a run lasts (the
 * next run moved past a lease, so that a run whose process died is taken again), and the failures in a row that set
 * the backoff. The mail outbox and the provisioning jobs keep their tables and columns as they were.
 */
export class JobSchedules1768400006700 implements MigrationInterface {
  name = 'JobSchedules1768400006700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE job_schedules (
        name text PRIMARY KEY,
        next_run_at timestamptz NOT NULL,
        claim_token uuid,
        claimed_by text,
        claimed_at timestamptz,
        failures integer NOT NULL DEFAULT 0,
        last_run_at timestamptz,
        last_error text
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE job_schedules');
  }
}
