import type { DataSource } from 'typeorm';

/** A readiness check that has not answered after this long counts as down. */
export const READY_CHECK_TIMEOUT_MS = 3000;

export class CheckTimedOut extends Error {}

export async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimedOut(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How many of the migrations this build knows are not in the database's migrations table. */
export async function pendingMigrations(dataSource: DataSource): Promise<number> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const rows: { name: string }[] = await dataSource.query(`SELECT name FROM "${table}"`);
  const applied = new Set(rows.map((row) => row.name));
  return dataSource.migrations.filter((migration) => !applied.has(migration.name ?? migration.constructor.name)).length;
}
