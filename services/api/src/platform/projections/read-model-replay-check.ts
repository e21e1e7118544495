import { escapeIdentifier } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { InlineProjection, ReplayCheckedTable } from '../event-store/event-store.port';
import type { InlineProjectionRegistry } from './inline-projection.registry';
import { createTemporaryCopy } from './temporary-copies';

/** Rows named per table and direction in a report; beyond this only the count grows. */
export const REPLAY_CHECK_ROWS_NAMED = 20;

/**
 * Events replayed into the copies per round trip: larger than a rebuild's batch, since the copies are temporary
 * tables (no WAL, no other reader) and the projections write each batch in few statements.
 */
export const REPLAY_CHECK_BATCH_SIZE = 5000;

export interface ReadModelMismatch {
  table: string;
  /** `missing`: the replay makes this row and the read model lacks it (or holds it otherwise); `extra`: the reverse. */
  side: 'missing' | 'extra';
  /** The row's key columns, `name=value` joined by commas. */
  key: string;
}

export interface ReadModelReplayReport {
  projections: string[];
  tables: Array<{ table: string; rows: number; missing: number; extra: number; compareMs: number }>;
  eventsReplayed: number;
  /** The time the replay into the copies took; each table's comparison is timed in `tables`. */
  replayMs: number;
  /** At most `REPLAY_CHECK_ROWS_NAMED` per table and side. */
  mismatches: ReadModelMismatch[];
}

/**
 * Proves that read models equal a replay of the events without touching them: inside one REPEATABLE READ
 * transaction that is always rolled back, it creates empty temporary copies of the checked tables, which shadow
 * the real ones for unqualified names (`pg_temp` comes first in the search path), replays every event into the
 * copies through the projections' own code, and compares copy and table row by row (`EXCEPT ALL` both ways).
 * The live tables are only read, so a server keeps appending meanwhile; events appended after the snapshot are in
 * neither side.
 */
export class ReadModelReplayCheck {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: InlineProjectionRegistry,
  ) {}

  /** The registered projections that declare tables to check, in registration order. */
  checkedProjections(): InlineProjection[] {
    return this.registry.all().filter((projection) => (projection.replayChecked?.length ?? 0) > 0);
  }

  async run(): Promise<ReadModelReplayReport> {
    const projections = this.checkedProjections();
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const manager = runner.manager;
      const [{ schema }]: Array<{ schema: string }> = await manager.query('SELECT current_schema() AS schema');
      const tables = projections.flatMap((projection) => projection.replayChecked ?? []);
      for (const { table } of tables) await createTemporaryCopy(manager, schema, table, { onCommitDrop: true });
      await manager.query(`SET LOCAL search_path TO pg_temp, ${escapeIdentifier(schema)}`);
      const replayStarted = performance.now();
      const appended = projections.filter((projection) => projection.keptByProcessor === undefined);
      let eventsReplayed =
        appended.length > 0 ? await this.registry.replayKeeping(manager, appended, REPLAY_CHECK_BATCH_SIZE) : 0;
      // A read model a processor keeps holds the events up to its checkpoint, read in this same snapshot.
      for (const projection of projections.filter((candidate) => candidate.keptByProcessor !== undefined)) {
        const rows: Array<{ position: string }> = await manager.query(
          'SELECT commit_position::text AS position FROM checkpoints WHERE name = $1',
          [projection.keptByProcessor],
        );
        const upTo = rows[0]?.position ?? '0';
        const replayed = await this.registry.replayKeeping(manager, [projection], REPLAY_CHECK_BATCH_SIZE, upTo);
        eventsReplayed = Math.max(eventsReplayed, replayed);
      }
      const report: ReadModelReplayReport = {
        projections: projections.map((projection) => projection.name),
        tables: [],
        eventsReplayed,
        replayMs: performance.now() - replayStarted,
        mismatches: [],
      };
      for (const checked of tables) await this.compare(manager, schema, checked, report);
      return report;
    } finally {
      // Nothing of the check may last: the copies go with the rollback.
      await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }

  private async compare(
    manager: EntityManager,
    schema: string,
    checked: ReplayCheckedTable,
    report: ReadModelReplayReport,
  ): Promise<void> {
    const started = performance.now();
    const columnRows: Array<{ name: string }> = await manager.query(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [schema, checked.table],
    );
    const list = columnRows.map((row) => escapeIdentifier(row.name)).join(', ');
    const keys = checked.key.map(escapeIdentifier).join(', ');
    const replayed = `pg_temp.${escapeIdentifier(checked.table)}`;
    const stored = `${escapeIdentifier(schema)}.${escapeIdentifier(checked.table)}`;
    // One pass over both tables instead of `EXCEPT ALL` each way (which reads and sorts or hashes both twice): every
    // distinct row with how many more times the replay holds it than the table. A positive surplus is a row the
    // replay makes and the table lacks (`missing`), a negative one the reverse (`extra`), with the same multiset
    // meaning as `EXCEPT ALL`, NULLs equal to NULLs.
    const [row]: Array<{
      missing: number;
      extra: number;
      missing_keys: Array<Record<string, unknown>> | null;
      extra_keys: Array<Record<string, unknown>> | null;
    }> = await manager.query(
      `WITH differing AS (
         SELECT ${keys}, count(*) FILTER (WHERE replay_check_side = 'replayed')
                       - count(*) FILTER (WHERE replay_check_side = 'stored') AS replay_check_surplus
           FROM (SELECT 'replayed' AS replay_check_side, ${list} FROM ${replayed}
                 UNION ALL SELECT 'stored', ${list} FROM ${stored}) AS sides
          GROUP BY ${list}
         HAVING count(*) FILTER (WHERE replay_check_side = 'replayed')
             <> count(*) FILTER (WHERE replay_check_side = 'stored')
       )
       SELECT (SELECT coalesce(sum(greatest(replay_check_surplus, 0)), 0)::int FROM differing) AS missing,
              (SELECT coalesce(sum(greatest(-replay_check_surplus, 0)), 0)::int FROM differing) AS extra,
              (SELECT json_agg(named) FROM (SELECT ${keys} FROM differing WHERE replay_check_surplus > 0
                 ORDER BY ${keys} LIMIT ${REPLAY_CHECK_ROWS_NAMED}) named) AS missing_keys,
              (SELECT json_agg(named) FROM (SELECT ${keys} FROM differing WHERE replay_check_surplus < 0
                 ORDER BY ${keys} LIMIT ${REPLAY_CHECK_ROWS_NAMED}) named) AS extra_keys`,
    );
    const counts = { missing: row.missing, extra: row.extra };
    for (const [side, named] of [
      ['missing', row.missing_keys],
      ['extra', row.extra_keys],
    ] as const) {
      for (const key of named ?? []) {
        const described = checked.key.map((column) => `${column}=${String(key[column])}`).join(',');
        report.mismatches.push({ table: checked.table, side, key: described });
      }
    }
    const [{ total }]: Array<{ total: number }> = await manager.query(`SELECT count(*)::int AS total FROM ${stored}`);
    report.tables.push({ table: checked.table, rows: total, ...counts, compareMs: performance.now() - started });
  }
}
