import { Client } from 'pg';

/** What a check needs of a connection: statements and their rows. TypeORM's EntityManager is one too. */
export interface SqlReader {
  query<Row>(sql: string, parameters?: unknown[]): Promise<Row[]>;
}

/**
 * Runs `work` on a connection of its own inside one REPEATABLE READ READ ONLY transaction, so everything it reads is
 * one snapshot, and closes the connection whatever happens. For checks that run away from the application's pool,
 * such as those `kupa ledger verify` runs in worker threads.
 */
export async function withReadOnlySnapshot<Result>(
  databaseUrl: string,
  applicationName: string,
  work: (reader: SqlReader) => Promise<Result>,
): Promise<Result> {
  const client = new Client({ connectionString: databaseUrl, application_name: applicationName });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const reader: SqlReader = {
      query: async <Row>(sql: string, parameters?: unknown[]) => (await client.query(sql, parameters)).rows as Row[],
    };
    const result = await work(reader);
    await client.query('COMMIT');
    return result;
  } finally {
    await client.end();
  }
}

/** The url a data source was configured with; the checks that open their own connections need one. */
export function databaseUrlOf(dataSource: { options: object }): string {
  const url = (dataSource.options as { url?: string }).url;
  if (!url) throw new Error('This check opens its own connection and needs a data source configured with a url');
  return url;
}
