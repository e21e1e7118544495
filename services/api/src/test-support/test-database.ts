import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A fresh, empty database for one test file, dropped afterwards, on the run's test server. */
export interface TestDatabase {
  url: string;
  /** The database's name on the server, as `CREATE DATABASE … TEMPLATE` names a source. */
  name: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.KUPA_TEST_ADMIN_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('No test PostgreSQL: run through jest (global setup) or set DATABASE_URL');
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One statement on the server's admin database, on a connection of its own (database DDL cannot share one). */
async function onServer(sql: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh database, empty (`template0`) or a file-by-file copy of `template`'s. */
async function newDatabase(template: string): Promise<TestDatabase> {
  const name = `kupa_t_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return {
    url: withDatabase(adminUrl(), name),
    name,
    drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export function createTestDatabase(): Promise<TestDatabase> {
  return newDatabase('template0');
}

/** Names the run's migrated template (made by the global setup) to the spec files' workers. */
export const MIGRATED_TEMPLATE_VARIABLE = 'KUPA_TEST_MIGRATED_TEMPLATE';

/**
 * A fresh database with every migration applied: a copy of the run's migrated template. A copy took about half a
 * second where an empty database and the 78 migrations took about two (docs/adr/0140), and the suite starts an app
 * on such a database over 170 times a pass. Without a template (a spec run outside the global setup), an empty
 * database, which the app's start migrates.
 */
export function createMigratedTestDatabase(): Promise<TestDatabase> {
  return newDatabase(process.env[MIGRATED_TEMPLATE_VARIABLE] ?? 'template0');
}

/**
 * Closes `database` to connections, so that it can serve as a template: PostgreSQL copies a database only while
 * nobody is connected to it, and a spec that connected by mistake would otherwise make every later copy fail.
 */
export function refuseConnections(database: TestDatabase): Promise<void> {
  return onServer(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS false`);
}

/**
 * A copy of `source` as it stands, as a restored backup of it would be: PostgreSQL copies the database file by file
 * (`CREATE DATABASE … TEMPLATE`), sequences and all. Nothing may be connected to `source` meanwhile.
 */
export function copyTestDatabase(source: TestDatabase): Promise<TestDatabase> {
  return newDatabase(source.name);
}
