import type { DataSource } from 'typeorm';

/** The names of a table's indexes, sorted: what a migration that adds or drops one is checked against. */
export async function indexNamesOf(dataSource: DataSource, table: string): Promise<string[]> {
  const rows: Array<{ indexname: string }> = await dataSource.query(
    'SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY indexname',
    [table],
  );
  return rows.map((row) => row.indexname);
}

/** The plan of a query with sequential scans priced out, so that an empty table still shows which index serves it. */
export async function planWithoutSeqScans(dataSource: DataSource, sql: string, parameters: unknown[]): Promise<string> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SET LOCAL enable_seqscan = off');
    const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN ${sql}`, parameters);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}
