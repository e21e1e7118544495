import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each entry keeps its event's correlation id, so that the activity log's id filter finds what one operation caused:
 * a bulk batch's own two entries and every target's event, which carries the batch's id as its correlation id
 * (docs/adr/0090-bulk-operations.md). Entries written before are filled in from their events' metadata.
 */
export class AuditCorrelationId1770600003210 implements MigrationInterface {
  name = 'AuditCorrelationId1770600003210';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE audit_logs ADD COLUMN correlation_id text`);
    await runner.query(`
      UPDATE audit_logs a SET correlation_id = e.metadata->>'correlationId'
        FROM events e WHERE e.global_position = a.global_position`);
    // The third side of the id filter's BitmapOr, beside the target and parent indexes.
    await runner.query(
      `CREATE INDEX audit_logs_correlation_id ON audit_logs (correlation_id, created_at DESC)
       WHERE correlation_id IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX audit_logs_correlation_id`);
    await runner.query(`ALTER TABLE audit_logs DROP COLUMN correlation_id`);
  }
}
