import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activity log's processor starts where the append stopped writing the log (docs/adr/0126): on a database whose
 * log the append kept, every committed event has its entries already, so the `audit-log` processor's checkpoint is
 * made at the newest commit. Without it the processor would start from the first event and enter the whole history
 * a second time. On a new database the newest commit is 0, where the processor would start anyway.
 */
export class AuditLogProcessorCheckpoint1772300012600 implements MigrationInterface {
  name = 'AuditLogProcessorCheckpoint1772300012600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `INSERT INTO checkpoints (name, commit_position)
       SELECT 'audit-log', coalesce(max(commit_position), 0) FROM event_commits
       ON CONFLICT (name) DO NOTHING`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM checkpoints WHERE name = 'audit-log'`);
  }
}
