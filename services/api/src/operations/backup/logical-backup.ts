import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { migrateUnderLock } from '../../platform/database/migrate-under-lock';
import { BackupRefused } from './database-backup';
import { openPrivateFile } from './private-file';

/**
 * Kupa's own logical backup (docs/adr/0065-backup-on-the-default-install.md): one file that `kupa restore` reads back
 * with nothing but Node and the `pg` driver, so the default install (the embedded PostgreSQL 17, whose package ships
 * no pg_dump) backs up and restores on a machine with no PostgreSQL client tools at all.
 *
 * The file is gzip of: one JSON header line (`BackupHeader`), then each table's rows in COPY text format, the tables
 * in the header's order, each exactly its `rows` lines long (COPY's text format escapes newlines inside values, so a
 * line is a row). Everything is read in one REPEATABLE READ READ ONLY transaction, so the tables agree with each
 * other. Tables, columns and sequences come from the catalog (the `public` schema), not from a list here, so a
 * migration that adds any of them is backed up without a change to this file.
 */

export const BACKUP_FORMAT = 'kupa-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** TypeORM's table of applied migrations: the schema version, recreated by running them, never copied. */
const MIGRATIONS_TABLE = 'migrations';
/** Restore hands COPY this many bytes of rows at a time. */
const RESTORE_CHUNK_BYTES = 1024 * 1024;

export interface BackupTable {
  name: string;
  columns: string[];
  rows: number;
}

export interface BackupSequence {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  serverVersion: string;
  /** The applied migrations, oldest first: the schema version the rows belong to. */
  migrations: string[];
  /** In an order that satisfies the foreign keys: a referenced table before the tables that reference it. */
  tables: BackupTable[];
  sequences: BackupSequence[];
}

export interface LogicalBackupResult {
  file: string;
  format: typeof BACKUP_FORMAT;
  bytes: number;
  serverVersion: string;
  migrations: number;
  tables: number;
  rows: number;
  sequences: number;
  /** What the backup holds, to compare with the restored copy: its events and the position of the last one. */
  events: number;
  lastGlobalPosition: string | null;
  elapsedMs: number;
}

export interface RestoreResult {
  file: string;
  migrations: number;
  tables: number;
  rows: number;
  sequences: number;
  elapsedMs: number;
}

/** A restore refused before it wrote anything (not a Kupa backup, a database not empty, a newer schema). */
export class RestoreRefused extends Error {}

/** A migration class as `schema.ts` lists them. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type MigrationClass = Function;

const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface CatalogTable {
  name: string;
  columns: string[];
  /** Tables this one references by a foreign key. */
  references: string[];
}

/**
 * The `public` schema's tables (but the migrations table) with their stored columns and foreign keys. A partitioned
 * table is one table, read through its parent and written back through it, and its partitions are not listed: the
 * partitions exist only where `kupa events partition` made them, never in the schema that restore's migrations
 * create (docs/adr/0114-partitioned-events.md).
 */
async function catalogTables(client: Client): Promise<CatalogTable[]> {
  const tables = await client.query<{ name: string; columns: string[]; references: string[] | null }>(
    `SELECT c.relname AS name,
            array(SELECT a.attname::text FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                   ORDER BY a.attnum) AS columns,
            array(SELECT DISTINCT r.relname::text FROM pg_constraint k JOIN pg_class r ON r.oid = k.confrelid
                   WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid <> c.oid) AS references
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> $1
      ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  return tables.rows.map((row) => ({ name: row.name, columns: row.columns, references: row.references ?? [] }));
}

/** Referenced tables first; a cycle of foreign keys (Kupa has none) is a bug to be told, not guessed around. */
export function foreignKeyOrder<T extends { name: string; references: string[] }>(tables: readonly T[]): T[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: T[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: T) => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`Foreign keys form a cycle through ${table.name}`);
    visiting.add(table.name);
    for (const reference of table.references) {
      const referenced = byName.get(reference);
      if (referenced) visit(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** The `public` schema's sequences but the migrations table's own, with their values. */
async function catalogSequences(client: Client): Promise<BackupSequence[]> {
  const names = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND t.relname = $1)
      ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  const sequences: BackupSequence[] = [];
  for (const { name } of names.rows) {
    const [row] = (
      await client.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text AS last_value, is_called FROM ${identifier(name)}`,
      )
    ).rows;
    sequences.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return sequences;
}

async function tableExists(client: Client, name: string): Promise<boolean> {
  const found = await client.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [`public.${identifier(name)}`]);
  return (found.rows[0] as { found: boolean }).found;
}

/** `kupa backup` (the default): the whole Kupa schema's rows into `file`, created mode 0600. */
export async function backupLogically(options: { databaseUrl: string; file: string }): Promise<LogicalBackupResult> {
  const started = performance.now();
  if (existsSync(options.file)) throw new BackupRefused(`${options.file} exists; a backup never overwrites a file`);
  mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
  // Written under another name and renamed when complete: a backup that failed halfway is never taken for one.
  const partial = `${options.file}.partial`;
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  let out: Writable | null = null;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const serverVersion = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]
      .v;
    const migrations = (await tableExists(client, MIGRATIONS_TABLE))
      ? (
          await client.query<{ name: string }>(
            `SELECT name FROM ${identifier(MIGRATIONS_TABLE)} ORDER BY timestamp, id`,
          )
        ).rows.map((row) => row.name)
      : [];
    const tables: BackupTable[] = [];
    for (const table of foreignKeyOrder(await catalogTables(client))) {
      const counted = await client.query<{ rows: string }>(
        `SELECT count(*)::text AS rows FROM ${identifier(table.name)}`,
      );
      tables.push({ name: table.name, columns: table.columns, rows: Number(counted.rows[0].rows) });
    }
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      serverVersion,
      migrations,
      tables,
      sequences: await catalogSequences(client),
    };
    const events = tables.some((table) => table.name === 'events')
      ? (await client.query<{ last: string | null }>(`SELECT max(global_position)::text AS last FROM events`)).rows[0]
          .last
      : null;

    out = await openPrivateFile(partial);
    const gzip = createGzip();
    const written = pipeline(gzip, out);
    gzip.write(`${JSON.stringify(header)}\n`);
    for (const table of tables) {
      const columns = table.columns.map(identifier).join(', ');
      const rows = client.query(copyTo(`COPY (SELECT ${columns} FROM ${identifier(table.name)}) TO STDOUT`));
      rows.pipe(gzip, { end: false });
      await once(rows, 'end');
    }
    gzip.end();
    await written;
    await client.query('COMMIT');
    renameSync(partial, options.file);
    return {
      file: options.file,
      format: BACKUP_FORMAT,
      bytes: statSync(options.file).size,
      serverVersion,
      migrations: migrations.length,
      tables: tables.length,
      rows: tables.reduce((sum, table) => sum + table.rows, 0),
      sequences: header.sequences.length,
      events: tables.find((table) => table.name === 'events')?.rows ?? 0,
      lastGlobalPosition: events,
      elapsedMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    out?.destroy();
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await client.end();
  }
}

/** The lines of a backup file: its header first, then its rows. */
function backupLines(file: string): AsyncIterator<string> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  return lines[Symbol.asyncIterator]();
}

/** Reads a backup's header; anything else (a pg_dump file, a damaged one) is refused with what to do instead. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const lines = backupLines(file);
  try {
    const first = await lines.next();
    const header = JSON.parse(first.done ? '' : first.value) as Partial<BackupHeader>;
    if (header.format !== BACKUP_FORMAT) throw new Error('no Kupa backup header');
    if (header.formatVersion !== BACKUP_FORMAT_VERSION)
      throw new RestoreRefused(
        `${file} is a Kupa backup of format version ${header.formatVersion}; this build reads version ${BACKUP_FORMAT_VERSION}`,
      );
    return header as BackupHeader;
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    throw new RestoreRefused(
      `${file} is not a Kupa backup (${error instanceof Error ? error.message : String(error)}); a custom-format ` +
        'pg_dump file (kupa backup --format pg_dump) restores with pg_restore (README, Production)',
    );
  } finally {
    await lines.return?.();
  }
}

/** The class name TypeORM records in the migrations table for a migration class. */
function migrationName(migration: MigrationClass): string {
  const instance = new (migration as new () => { name?: string })();
  return instance.name ?? migration.name;
}

/**
 * `kupa restore FILE`: into an empty database, creates the schema by running this build's migrations up to the
 * backup's, then copies every table's rows in and sets every sequence, in one transaction. Starting Kupa on the
 * database afterwards runs whatever later migrations this build has, as on any upgrade.
 */
export async function restoreLogically(options: {
  databaseUrl: string;
  file: string;
  migrations: readonly MigrationClass[];
}): Promise<RestoreResult> {
  const started = performance.now();
  const header = await readBackupHeader(options.file);
  const known = new Map(options.migrations.map((migration) => [migrationName(migration), migration]));
  const unknown = header.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new RestoreRefused(
      `${options.file} was taken on a newer schema than this build knows (${unknown.join(', ')}); ` +
        'restore it with that build or a later one',
    );
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const existing = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S', 'v', 'm') LIMIT 5`,
    );
    if (existing.rowCount !== 0)
      throw new RestoreRefused(
        `kupa restore needs an empty database; this one has ${existing.rows.map((row) => row.name).join(', ')}` +
          `${(existing.rowCount ?? 0) >= 5 ? ' and more' : ''}`,
      );

    const schema = new DataSource({
      type: 'postgres',
      url: options.databaseUrl,
      migrations: header.migrations.map((name) => known.get(name) as MigrationClass),
      migrationsTransactionMode: 'each',
      logging: false,
    });
    await migrateUnderLock(await schema.initialize());
    await schema.destroy();

    const target = new Map((await catalogTables(client)).map((table) => [table.name, new Set(table.columns)] as const));
    for (const table of header.tables) {
      const columns = target.get(table.name);
      const missing = columns ? table.columns.filter((column) => !columns.has(column)) : table.columns;
      if (!columns || missing.length > 0)
        throw new Error(
          `The migrations of ${options.file} did not create ${columns ? `${table.name}(${missing.join(', ')})` : table.name}`,
        );
    }

    await client.query('BEGIN');
    // What a migration may have seeded is replaced by the backup's rows.
    if (header.tables.length > 0)
      await client.query(`TRUNCATE ${header.tables.map((table) => identifier(table.name)).join(', ')}`);
    // The rows are history as it was written, not new writes: no trigger may react to them. The event store's commit
    // trigger (docs/adr/0061) would number every restored event a second time, beside its restored commit position.
    const restored = header.tables.map((table) => identifier(table.name));
    for (const table of restored) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    const lines = backupLines(options.file);
    await lines.next();
    for (const table of header.tables) await copyTableIn(client, table, lines);
    for (const table of restored) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    const trailing = await lines.next();
    if (!trailing.done) throw new Error(`${options.file} holds more rows than its header says`);
    for (const sequence of header.sequences)
      await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
        `public.${identifier(sequence.name)}`,
        sequence.lastValue,
        sequence.isCalled,
      ]);
    await client.query('COMMIT');
    return {
      file: options.file,
      migrations: header.migrations.length,
      tables: header.tables.length,
      rows: header.tables.reduce((sum, table) => sum + table.rows, 0),
      sequences: header.sequences.length,
      elapsedMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** COPY FROM of exactly `table.rows` lines, handed over in chunks and with the stream's back-pressure. */
async function copyTableIn(client: Client, table: BackupTable, lines: AsyncIterator<string>): Promise<void> {
  const columns = table.columns.map(identifier).join(', ');
  const sink = client.query(copyFrom(`COPY ${identifier(table.name)} (${columns}) FROM STDIN`));
  const finished = once(sink, 'finish');
  // A failed COPY rejects this while rows are still being read; it is awaited below, and must not count as unhandled.
  finished.catch(() => undefined);
  let chunk = '';
  const flush = async () => {
    if (chunk === '') return;
    if (!sink.write(chunk)) await once(sink, 'drain');
    chunk = '';
  };
  for (let row = 0; row < table.rows; row += 1) {
    const line = await lines.next();
    if (line.done) throw new Error(`The backup ends inside ${table.name}: ${row} of ${table.rows} rows`);
    chunk += `${line.value}\n`;
    if (chunk.length >= RESTORE_CHUNK_BYTES) await flush();
  }
  await flush();
  sink.end();
  await finished;
  if (sink.rowCount !== table.rows)
    throw new Error(`${table.name}: copied ${sink.rowCount} rows where the backup holds ${table.rows}`);
}
