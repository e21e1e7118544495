import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activity log and the last known field values per target that its before/after changes are diffed against.
 * Both are read models of the event store: a rebuild empties and refills them.
 */
export class AuditSchema1767225600800 implements MigrationInterface {
  name = 'AuditSchema1767225600800';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE audit_logs (
        id uuid PRIMARY KEY,
        created_at timestamptz NOT NULL,
        created_by_id text NOT NULL,
        created_by_name text NOT NULL,
        operation_type text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        parent_type text,
        parent_id text,
        changes jsonb NOT NULL DEFAULT '[]'::jsonb,
        event_type text NOT NULL,
        stream_id text NOT NULL,
        global_position bigint NOT NULL
      )`);
    // The default order (newest first) and the date-range filter.
    await runner.query(`CREATE INDEX audit_logs_created_at ON audit_logs (created_at DESC, global_position DESC)`);
    // "Target OR parent" filters are answered by a BitmapOr over the two sides' indexes.
    await runner.query(`CREATE INDEX audit_logs_target_id ON audit_logs (target_id, created_at DESC)`);
    await runner.query(
      `CREATE INDEX audit_logs_parent_id ON audit_logs (parent_id, created_at DESC) WHERE parent_id IS NOT NULL`,
    );
    await runner.query(`CREATE INDEX audit_logs_target_type ON audit_logs (target_type, created_at DESC)`);
    await runner.query(
      `CREATE INDEX audit_logs_parent_type ON audit_logs (parent_type, created_at DESC) WHERE parent_type IS NOT NULL`,
    );
    await runner.query(`CREATE INDEX audit_logs_operation_type ON audit_logs (operation_type, created_at DESC)`);
    await runner.query(`
      CREATE TABLE audit_target_states (
        target_kind text NOT NULL,
        target_id text NOT NULL,
        fields jsonb NOT NULL,
        PRIMARY KEY (target_kind, target_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE audit_target_states`);
    await runner.query(`DROP TABLE audit_logs`);
  }
}
