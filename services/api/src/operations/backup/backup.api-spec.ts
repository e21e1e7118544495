import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../../platform/config';
import { adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { kupa } from '../../test-support/kupa-cli';
import { manualPayment, transfer } from '../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { createTestDatabase } from '../../test-support/test-database';
import { type BackupResult, choosePgDump, pgDumpCandidates } from './database-backup';

const run = promisify(execFile);

/**
 * `kupa backup` and the documented restore (README, Production): pg_restore into an empty database, after which
 * `kupa ledger verify` passes on the copy with the same events.
 */
describe('kupa backup', () => {
  let testApp: TestApp;
  let workDir: string;
  let serverMajor: number;

  beforeAll(async () => {
    testApp = await startTestApp();
    workDir = mkdtempSync(join(tmpdir(), 'kupa-backup-'));
    const admin = await adminToken(testApp);
    const dana = await createActiveUser(testApp);
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
    const candidates = pgDumpCandidates(repositoryRoot());
    const fitting = await choosePgDump(candidates, serverMajor).catch(() => null);
    const backedUp = await kupa(testApp, 'backup', '--out', file, '--json');
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
});
