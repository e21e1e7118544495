import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The unique constraints on `events.event_id`: the plain table's, or one per partition (ADR 0114). */
const EVENT_ID_UNIQUE_CONSTRAINTS = `
  SELECT conrelid::regclass::text AS "table", conname::text AS name FROM pg_constraint
   WHERE contype = 'u' AND conname ~ '^events(_p[0-9]+)?_event_id_unique$'`;

/**
 * `events.event_id` loses its unique index (docs/adr/0128-one-commit-row-per-transaction.md): no query reads by it, and
 * it cost every event an index entry. The ids stay random UUIDs (`gen_random_uuid()`), so the store never writes one
 * twice; a copy that would (a restore or import that copies rows) is named by `kupa ledger verify` instead of
 * refused. On a partitioned `events` the constraint is each partition's.
 */
export class EventIdsWithoutIndex1772400012700 implements MigrationInterface {
  name = 'EventIdsWithoutIndex1772400012700';

  async up(runner: QueryRunner): Promise<void> {
    const constraints: Array<{ table: string; name: string }> = await runner.query(EVENT_ID_UNIQUE_CONSTRAINTS);
    for (const { table, name } of constraints) await runner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const partitions: Array<{ name: string }> = await runner.query(
      `SELECT child.relname::text AS name FROM pg_inherits
         JOIN pg_class child ON child.oid = pg_inherits.inhrelid
        WHERE pg_inherits.inhparent = 'events'::regclass`,
    );
    if (partitions.length === 0) {
      await runner.query('ALTER TABLE events ADD CONSTRAINT events_event_id_unique UNIQUE (event_id)');
      return;
    }
    for (const { name } of partitions)
      await runner.query(`ALTER TABLE ${name} ADD CONSTRAINT ${name}_event_id_unique UNIQUE (event_id)`);
  }
}
