import type { DataSource } from 'typeorm';
import { TimedOut, within } from '../clock/within';

/** A readiness check that has not answered after this long counts as down. */
export const READY_CHECK_TIMEOUT_MS = 3000;

/** One check's verdict as the probes show it: a word for why it is down, never the error's message. */
export type CheckState = { status: 'up' } | { status: 'down'; reason?: string; pending?: number };

/** Told the error of a failed check: its message may name hosts or users, so it goes to the log only. */
export type CheckFailure = (check: string, error: unknown) => void;

const UP: CheckState = { status: 'up' };

function down(check: string, error: unknown, word: string, onFailure?: CheckFailure): CheckState {
  onFailure?.(check, error);
  return { status: 'down', reason: error instanceof TimedOut ? 'timeout' : word };
}

/** How many of the migrations this build knows are not in the database's migrations table. */
export async function pendingMigrations(dataSource: DataSource): Promise<number> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const rows: { name: string }[] = await dataSource.query(`SELECT name FROM "${table}"`);
  const applied = new Set(rows.map((row) => row.name));
  return dataSource.migrations.filter((migration) => !applied.has(migration.name ?? migration.constructor.name)).length;
}

/** The database answers within `READY_CHECK_TIMEOUT_MS`. */
export async function databaseCheck(dataSource: DataSource, onFailure?: CheckFailure): Promise<CheckState> {
  try {
    await within(READY_CHECK_TIMEOUT_MS, dataSource.query('SELECT 1'), 'the database check');
    return UP;
  } catch (error) {
    return down('database', error, 'unreachable', onFailure);
  }
}

/** Every migration this build knows is applied. */
export async function migrationsCheck(dataSource: DataSource, onFailure?: CheckFailure): Promise<CheckState> {
  try {
    const pending = await within(READY_CHECK_TIMEOUT_MS, pendingMigrations(dataSource), 'the migrations check');
    return pending === 0 ? UP : { status: 'down', pending };
  } catch (error) {
    return down('migrations', error, 'unreadable', onFailure);
  }
}

/**
 * What readiness answers for (docs/adr/0063), the same on an API replica's `/api/health/ready`, a worker's
 * `/health/ready` and the `kupa_database_ready` gauge: the database answers and the schema is current.
 */
export async function servingChecks(
  dataSource: DataSource,
  onFailure?: CheckFailure,
): Promise<{ database: CheckState; migrations: CheckState }> {
  const database = await databaseCheck(dataSource, onFailure);
  const migrations = await migrationsCheck(dataSource, onFailure);
  return { database, migrations };
}
