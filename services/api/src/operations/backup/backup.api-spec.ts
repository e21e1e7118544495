import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../../platform/config';
import { adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { kupa, kupaOn } from '../../test-support/kupa-cli';
import { manualPayment, transfer } from '../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { createTestDatabase } from '../../test-support/test-database';
import { Client } from 'pg';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type BackupResult, choosePgDump, pgDumpCandidates } from './database-backup';
import { type BackupHeader, type LogicalBackupResult, type RestoreResult } from './logical-backup';
import { openPrivateFile } from './private-file';

const run = promisify(execFile);

/**
 * `kupa backup` and `kupa restore` (README, Production; docs/adr/0065-backup-on-the-default-install.md): Kupa's own
 * backup needs no PostgreSQL client tools, so it runs in both of CI's passes (the embedded PostgreSQL 17, where no
 * pg_dump fits, and PostgreSQL 15); restored into an empty database, every table holds the same rows and
 * `kupa ledger verify` passes. The pg_dump format stays an option where a fitting pg_dump exists.
 */
describe('kupa backup', () => {
  let testApp: TestApp;
  let workDir: string;
  let serverMajor: number;
  let danaUuid: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    workDir = mkdtempSync(join(tmpdir(), 'kupa-backup-'));
    const admin = await adminToken(testApp);
    const dana = await createActiveUser(testApp);
    danaUuid = dana.userUuid;
    const omer = await createActiveUser(testApp);
    await manualPayment(testApp, admin, dana.userUuid, 120, 'Opening deposit');
    await transfer(testApp, dana.accessToken, omer.email, 45.5);
    await manualPayment(testApp, admin, omer.userUuid, 10, 'Payout', 'WITHDRAW');
    const [row] = await testApp.dataSource.query<{ num: string }[]>(
      `SELECT current_setting('server_version_num') AS num`,
    );
    serverMajor = Math.floor(Number(row.num) / 10_000);
  });

  afterAll(async () => {
    await testApp.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses, naming both versions, when the pg_dump is older than the server', async () => {
    const oldPgDump = join(workDir, 'pg_dump');
    writeFileSync(oldPgDump, '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n');
    chmodSync(oldPgDump, 0o755);
    const { code, output } = await kupa(
      testApp,
      'backup',
      '--out',
      join(workDir, 'never.dump'),
      '--pg-dump',
      oldPgDump,
    );
    expect(code).toBe(1);
    expect(output).toContain(`needs pg_dump from PostgreSQL ${serverMajor} or newer`);
    expect(output).toContain(`${oldPgDump} (9.6.24)`);
    expect(output).toContain(`postgresql-client-${serverMajor}`);
  });

  it('names a pg_dump that does not run as such', async () => {
    const missing = join(workDir, 'no-such-pg_dump');
    const { code, output } = await kupa(testApp, 'backup', '--out', join(workDir, 'never.dump'), '--pg-dump', missing);
    expect(code).toBe(1);
    expect(output).toContain(`found none that answers --version among ${missing}`);
  });

  it('dumps a database with money in it; restored into an empty database, the ledger verifies', async () => {
    const file = join(workDir, 'kupa.dump');
    const umask = process.umask(0);
    const candidates = pgDumpCandidates(repositoryRoot());
    const fitting = await choosePgDump(candidates, serverMajor).catch(() => null);
    const backedUp = await kupa(testApp, 'backup', '--format', 'pg_dump', '--out', file, '--json').finally(() =>
      process.umask(umask),
    );
    if (fitting === null) {
      // No pg_dump on this machine can dump this server (the embedded PostgreSQL is newer than Debian's client
      // tools): the command says so and which client to install; CI's second pass on PostgreSQL 15 restores.
      expect(backedUp.code).toBe(1);
      expect(backedUp.output).toContain(`postgresql-client-${serverMajor}`);
      return;
    }
    expect(backedUp.code).toBe(0);
    const result = JSON.parse(backedUp.output) as BackupResult;
    const [source] = await testApp.dataSource.query<{ events: string }[]>(
      'SELECT count(*)::text AS events FROM events',
    );
    expect(result).toMatchObject({ file, pgDump: { path: fitting.path } });
    expect(result.bytes).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(result.events).toBeGreaterThan(0);
    expect(result.events).toBeLessThanOrEqual(Number(source.events));

    const restored = await createTestDatabase();
    const target = new URL(restored.url);
    const password = decodeURIComponent(target.password);
    target.password = '';
    await run(
      join(dirname(fitting.path), 'pg_restore'),
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${target.toString()}`, file],
      { env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } },
    );
    const copy = await startTestApp({ database: restored, backgroundWork: false });
    try {
      const [events] = await copy.dataSource.query<{ events: string }[]>('SELECT count(*)::text AS events FROM events');
      expect(Number(events.events)).toBeGreaterThanOrEqual(result.events);
      const verified = await kupa(copy, 'ledger', 'verify', '--json');
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.output)).toMatchObject({ ok: true, differenceCount: 0, counts: { transactions: 3 } });
      const original = JSON.parse((await kupa(testApp, 'ledger', 'verify', '--json')).output) as { counts: object };
      expect(JSON.parse(verified.output)).toMatchObject({ counts: original.counts });
    } finally {
      await copy.close();
    }
  });

  describe("in Kupa's own format, with no client tools", () => {
    /** Every table's rows in a fixed order, as one digest, and its row count; sequences' values. */
    async function snapshot(url: string): Promise<{ tables: Map<string, string>; sequences: Map<string, string> }> {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        const tables = new Map<string, string>();
        const names = await client.query<{ name: string; kind: string }>(
          `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S') ORDER BY c.relname`,
        );
        const sequences = new Map<string, string>();
        for (const { name, kind } of names.rows) {
          if (kind === 'S') {
            const [row] = (
              await client.query<{ v: string }>(`SELECT last_value::text || is_called::text AS v FROM "${name}"`)
            ).rows;
            sequences.set(name, row.v);
            continue;
          }
          const [row] = (
            await client.query<{ rows: string; digest: string | null }>(
              `SELECT count(*)::text AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${name}" t`,
            )
          ).rows;
          tables.set(name, `${row.rows} rows, ${row.digest ?? 'empty'}`);
        }
        return { tables, sequences };
      } finally {
        await client.end();
      }
    }

    it('creates the file mode 0600 before writing a byte, whatever the umask, and never over another file', async () => {
      const file = join(workDir, 'private');
      const umask = process.umask(0);
      try {
        const stream = await openPrivateFile(file);
        expect(statSync(file).size).toBe(0);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        await new Promise<void>((resolve) => stream.end(resolve));
      } finally {
        process.umask(umask);
      }
      await expect(openPrivateFile(file)).rejects.toThrow(/EEXIST/);
    });

    it('backs up and restores into an empty database with the same rows in every table; the ledger verifies', async () => {
      const file = join(workDir, 'kupa.kupa.gz');
      const before = await snapshot(testApp.database.url);
      const umask = process.umask(0);
      const backedUp = await kupa(testApp, 'backup', '--out', file, '--json').finally(() => process.umask(umask));
      expect(backedUp.code).toBe(0);
      const after = await snapshot(testApp.database.url);
      const result = JSON.parse(backedUp.output) as LogicalBackupResult;
      expect(result).toMatchObject({ file, format: 'kupa-backup' });
      expect(result.events).toBeGreaterThan(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.partial`)).toBe(false);

      const header = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8').split('\n')[0]) as BackupHeader;
      const tableNames = header.tables.map((table) => table.name);
      // Found in the catalog, not listed in the code: the event store, the ledger and the read models.
      expect(tableNames).toEqual(
        expect.arrayContaining(['events', 'ledger_entries', 'users', 'payments', 'checkpoints']),
      );
      expect(tableNames).not.toContain('migrations');
      expect(header.migrations.length).toBeGreaterThan(0);
      expect(header.sequences.map((sequence) => sequence.name)).toContain('payment_id_seq');
      expect(header.sequences.map((sequence) => sequence.name)).not.toContain('migrations_id_seq');
      expect(header.tables.find((table) => table.name === 'events')?.rows).toBe(result.events);

      const restored = await createTestDatabase();
      const target = { databaseUrl: restored.url, dataDir: workDir };
      const restoredOut = await kupaOn(target, null, 'restore', file, '--json');
      expect(restoredOut.code).toBe(0);
      expect(JSON.parse(restoredOut.output) as RestoreResult).toMatchObject({
        tables: header.tables.length,
        rows: result.rows,
        sequences: header.sequences.length,
        migrations: header.migrations.length,
      });
      const copied = await snapshot(restored.url);
      // Tables the background work did not touch while the backup ran must be identical; the others match the
      // backup's row counts.
      const steady = [...before.tables.keys()].filter((name) => before.tables.get(name) === after.tables.get(name));
      expect(steady).toEqual(
        expect.arrayContaining(['events', 'ledger_entries', 'users', 'payments', 'account_balances']),
      );
      for (const name of steady)
        expect(`${name}: ${copied.tables.get(name)}`).toBe(`${name}: ${before.tables.get(name)}`);
      for (const table of header.tables)
        expect(copied.tables.get(table.name)).toMatch(new RegExp(`^${table.rows} rows`));
      for (const sequence of header.sequences)
        expect(copied.sequences.get(sequence.name)).toBe(`${sequence.lastValue}${sequence.isCalled}`);

      const copy = await startTestApp({ database: restored, backgroundWork: false });
      try {
        const verified = await kupa(copy, 'ledger', 'verify', '--json');
        expect(verified.code).toBe(0);
        expect(JSON.parse(verified.output)).toMatchObject({
          ok: true,
          differenceCount: 0,
          counts: { transactions: 3 },
        });
        const original = JSON.parse((await kupa(testApp, 'ledger', 'verify', '--json')).output) as { counts: object };
        expect(JSON.parse(verified.output)).toMatchObject({ counts: original.counts });
        // The copy takes new money after the restore: sequences and streams carry on where the backup left them.
        const admin = await adminToken(copy);
        await manualPayment(copy, admin, danaUuid, 7, 'After the restore');
        expect((await kupa(copy, 'ledger', 'verify', '--json')).code).toBe(0);
        // Meanwhile the site went on where the backup was taken, writing what the restore loses. Positions repeat
        // between the two histories; event ids, which Kafka consumers dedupe by, are shared only by the backed-up
        // events (docs/adr/0061).
        await manualPayment(testApp, await adminToken(testApp), danaUuid, 7, 'Lost by the restore');
        const idsOf = async (app: TestApp) =>
          (await app.dataSource.query<{ id: string }[]>('SELECT event_id::text AS id FROM events')).map(({ id }) => id);
        const [inCopy, inOriginal] = [await idsOf(copy), new Set(await idsOf(testApp))];
        expect(inCopy.length).toBeGreaterThan(result.events);
        expect(inCopy.filter((id) => inOriginal.has(id))).toHaveLength(result.events);
      } finally {
        await copy.close();
      }
    });

    it('refuses to restore into a database that is not empty, and a file that is not a Kupa backup', async () => {
      const file = join(workDir, 'again.kupa.gz');
      expect((await kupa(testApp, 'backup', '--out', file)).code).toBe(0);
      const into = await kupa(testApp, 'restore', file);
      expect(into.code).toBe(1);
      expect(into.output).toContain('kupa restore needs an empty database');

      const notBackup = join(workDir, 'not-a-backup');
      writeFileSync(notBackup, 'PGDMP');
      const empty = await createTestDatabase();
      try {
        const refused = await kupaOn({ databaseUrl: empty.url, dataDir: workDir }, null, 'restore', notBackup);
        expect(refused.code).toBe(1);
        expect(refused.output).toContain('is not a Kupa backup');
        expect(refused.output).toContain('pg_restore');
      } finally {
        await empty.drop();
      }
    });

    it('refuses a backup taken on a schema newer than this build, before touching the database', async () => {
      const file = join(workDir, 'current.kupa.gz');
      expect((await kupa(testApp, 'backup', '--out', file)).code).toBe(0);
      const [headerLine, ...rows] = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
      const header = JSON.parse(headerLine) as BackupHeader;
      const future = join(workDir, 'future.kupa.gz');
      writeFileSync(
        future,
        gzipSync(
          [
            JSON.stringify({ ...header, migrations: [...header.migrations, 'FromTheFuture9999999999999'] }),
            ...rows,
          ].join('\n'),
        ),
      );
      const empty = await createTestDatabase();
      try {
        const refused = await kupaOn({ databaseUrl: empty.url, dataDir: workDir }, null, 'restore', future);
        expect(refused.code).toBe(1);
        expect(refused.output).toContain('newer schema than this build knows (FromTheFuture9999999999999)');
        const client = new Client({ connectionString: empty.url });
        await client.connect();
        const tables = await client.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`);
        await client.end();
        expect(tables.rowCount).toBe(0);
      } finally {
        await empty.drop();
      }
    });

    it('never writes over an existing file', async () => {
      const file = join(workDir, 'taken.kupa.gz');
      writeFileSync(file, 'keep me');
      const refused = await kupa(testApp, 'backup', '--out', file);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('exists');
      expect(readFileSync(file, 'utf8')).toBe('keep me');
    });
  });
});
