import { escapeIdentifier } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * An empty temporary copy of a read model's table in this session, which shadows the real one for unqualified names
 * (`pg_temp` comes first in the search path), so that the projections' own code writes into it. `onCommitDrop`
 * ties its life to the transaction (a check that rolls back); otherwise it lasts until the session drops it.
 *
 * A copy made `INCLUDING ALL` carries every index of its table. A replay needs only those that enforce a rule: the
 * primary key, which the projections' `ON CONFLICT` targets, and the unique indexes, whose violation aborts the replay
 * as it would have aborted the original append. The others serve reads of the live table and would only slow every
 * insert into the copy, so they are dropped.
 */
export async function createTemporaryCopy(
  manager: EntityManager,
  schema: string,
  table: string,
  { onCommitDrop }: { onCommitDrop: boolean },
): Promise<void> {
  await manager.query(
    `CREATE TEMP TABLE ${escapeIdentifier(table)} (LIKE ${escapeIdentifier(schema)}.${escapeIdentifier(table)} INCLUDING ALL)${onCommitDrop ? ' ON COMMIT DROP' : ''}`,
  );
  const indexes: Array<{ name: string }> = await manager.query(
    `SELECT index_class.relname AS name
       FROM pg_index JOIN pg_class index_class ON index_class.oid = pg_index.indexrelid
      WHERE pg_index.indrelid = $1::regclass AND NOT pg_index.indisunique AND NOT pg_index.indisprimary`,
    [`pg_temp.${escapeIdentifier(table)}`],
  );
  for (const { name } of indexes) await manager.query(`DROP INDEX pg_temp.${escapeIdentifier(name)}`);
}

/**
 * Fills `schema.table`, just emptied by the caller's transaction (a rebuild's swap), with its temporary copy's rows.
 * The table's secondary indexes are dropped first and built again from their own definitions after the copy: one
 * sorted build per index is several times quicker than as many single insertions as there are rows (measured in
 * docs/benchmarks.md, "Rebuilds: the swap builds its indexes"), and appends wait on the swap's lock for all of it.
 * The indexes that back a constraint (the primary key, unique constraints) stay, since other tables may refer to
 * them; the copy's own unique indexes have already enforced them.
 */
export async function refillFromTemporaryCopy(manager: EntityManager, schema: string, table: string): Promise<void> {
  const stored = `${escapeIdentifier(schema)}.${escapeIdentifier(table)}`;
  const secondary: Array<{ name: string; definition: string }> = await manager.query(
    `SELECT index_class.relname AS name, pg_get_indexdef(pg_index.indexrelid) AS definition
       FROM pg_index JOIN pg_class index_class ON index_class.oid = pg_index.indexrelid
      WHERE pg_index.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE pg_constraint.conindid = pg_index.indexrelid)
      ORDER BY index_class.relname`,
    [stored],
  );
  for (const { name } of secondary)
    await manager.query(`DROP INDEX ${escapeIdentifier(schema)}.${escapeIdentifier(name)}`);
  await manager.query(`INSERT INTO ${stored} SELECT * FROM pg_temp.${escapeIdentifier(table)}`);
  for (const { definition } of secondary) await manager.query(definition);
}
