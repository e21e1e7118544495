import type { DataSource, EntityManager } from 'typeorm';
import type { InlineProjection, ReplayCheckedTable } from '../event-store/event-store.port';
import type { InlineProjectionRegistry } from './inline-projection.registry';

/** Rows named per table and direction in a report; beyond this only the count grows. */
export const REPLAY_CHECK_ROWS_NAMED = 20;

export interface ReadModelMismatch {
  table: string;
  /** `missing`: the replay makes this row and the read model lacks it (or holds it otherwise); `extra`: the reverse. */
  side: 'missing' | 'extra';
  /** The row's key columns, `name=value` joined by commas. */
  key: string;
}

export interface ReadModelReplayReport {
  projections: string[];
  tables: Array<{ table: string; rows: number; missing: number; extra: number }>;
  eventsReplayed: number;
  /** At most `REPLAY_CHECK_ROWS_NAMED` per table and side. */
  mismatches: ReadModelMismatch[];
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
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
      for (const { table } of tables) {
        await manager.query(
          `CREATE TEMP TABLE ${quoteIdentifier(table)} (LIKE ${quoteIdentifier(schema)}.${quoteIdentifier(table)} INCLUDING ALL) ON COMMIT DROP`,
        );
      }
      await manager.query(`SET LOCAL search_path TO pg_temp, ${quoteIdentifier(schema)}`);
      const eventsReplayed = await this.registry.replayAll(manager, projections);
      const report: ReadModelReplayReport = {
        projections: projections.map((projection) => projection.name),
        tables: [],
        eventsReplayed,
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
    const columnRows: Array<{ name: string }> = await manager.query(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [schema, checked.table],
    );
    const list = columnRows.map((row) => quoteIdentifier(row.name)).join(', ');
    const keys = checked.key.map(quoteIdentifier).join(', ');
    const replayed = `pg_temp.${quoteIdentifier(checked.table)}`;
    const stored = `${quoteIdentifier(schema)}.${quoteIdentifier(checked.table)}`;
    const directions: Array<['missing' | 'extra', string, string]> = [
      ['missing', replayed, stored],
      ['extra', stored, replayed],
    ];
    const counts = { missing: 0, extra: 0 };
    for (const [side, from, minus] of directions) {
      const rows: Array<{ total: number; keys: Array<Record<string, unknown>> | null }> = await manager.query(
        `WITH differing AS (SELECT ${list} FROM ${from} EXCEPT ALL SELECT ${list} FROM ${minus})
         SELECT (SELECT count(*)::int FROM differing) AS total,
                (SELECT json_agg(named) FROM (SELECT ${keys} FROM differing ORDER BY ${keys} LIMIT ${REPLAY_CHECK_ROWS_NAMED}) named) AS keys`,
      );
      counts[side] = rows[0].total;
      for (const key of rows[0].keys ?? []) {
        const named = checked.key.map((column) => `${column}=${String(key[column])}`).join(',');
        report.mismatches.push({ table: checked.table, side, key: named });
      }
    }
    const [{ total }]: Array<{ total: number }> = await manager.query(`SELECT count(*)::int AS total FROM ${stored}`);
    report.tables.push({ table: checked.table, rows: total, ...counts });
  }
}
