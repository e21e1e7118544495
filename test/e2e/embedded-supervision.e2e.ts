import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { createClient, signIn } from '../support/money.ts';
import { postmasterPid, processAlive } from '../support/postmaster.ts';

/**
 * The embedded PostgreSQL is supervised (docs/adr/0064-supervised-embedded-database.md): the process that owns it
 * restarts it after a crash, exits non-zero when it cannot come back, and stops an orphan it adopted when it stops.
 * Always on the embedded database, whatever DATABASE_URL says: that is what is under test.
 */
const ADMIN_EMAIL = 'supervision-admin@example.com';
const ADMIN_PASSWORD = 'Supervision-Admin-Pass-1!';
const EMBEDDED = { DATABASE_URL: '', ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'log' };
/** Five attempts 0.5 + 1 + 2 + 4 + 8 s apart, each a start of PostgreSQL, and the close: well within this. */
const GIVE_UP_WITHIN_MS = 60_000;
const BACK_WITHIN_MS = 30_000;

async function waitFor(done: () => Promise<boolean>, failure: () => string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await done().catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return Date.now() - started;
}

/** The JSON log records of a server's output whose message matches. */
function logged(server: KupaServer, pattern: RegExp): { level?: string | number; msg?: string }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level?: string | number; msg?: string; message?: string })
    .map((record) => ({ ...record, msg: record.msg ?? record.message }))
    .filter((record) => pattern.test(record.msg ?? ''));
}

describe('the embedded PostgreSQL under npm start', { timeout: 240_000 }, () => {
  it('comes back after SIGKILL of its postmaster: a money route works again and the restart is logged', async () => {
    const server = await startKupaServer(EMBEDDED);
    try {
      const admin = await signIn(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
      await createClient(server.baseUrl, admin, 'before-crash@example.com', 5);
      const killed = postmasterPid(server.dataDir);
      process.kill(killed, 'SIGKILL');
      // The deposit is the money route: it appends to the ledger, so it needs the database back.
      let attempt = 0;
      const tookMs = await waitFor(
        async () => {
          attempt += 1;
          await createClient(server.baseUrl, admin, `after-crash-${attempt}@example.com`, 5);
          return true;
        },
        () => `no deposit succeeded within ${BACK_WITHIN_MS} ms of the kill:\n${server.output().slice(-3000)}`,
        BACK_WITHIN_MS,
      );
      process.stdout.write(`money route answered again ${tookMs} ms after SIGKILL of the postmaster\n`);
      assert.notEqual(postmasterPid(server.dataDir), killed);
      assert.ok(processAlive(postmasterPid(server.dataDir)));
      const restarts = logged(server, /Embedded PostgreSQL restarted/);
      assert.equal(restarts.length, 1, server.output().slice(-3000));
      assert.equal(restarts[0].level, 'warn');
      assert.equal(logged(server, /ended unexpectedly/).length, 1);
      const live = await fetch(`${server.baseUrl}/api/health/live`);
      assert.equal(live.status, 200);
    } finally {
      await server.stop();
    }
  });

  it('with WEB_CONCURRENCY the primary restarts it; its children, attached, wait for it and carry on', async () => {
    const server = await startKupaServer({ ...EMBEDDED, WEB_CONCURRENCY: '2' });
    try {
      // The first API child answers before the others have started: all of them are up before the kill.
      await waitFor(
        async () => logged(server, /Kupa is up with 2 API processes and a worker/).length === 1,
        () => `the cluster did not start:\n${server.output().slice(-3000)}`,
        60_000,
      );
      const admin = await signIn(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
      process.kill(postmasterPid(server.dataDir), 'SIGKILL');
      let attempt = 0;
      await waitFor(
        async () => {
          attempt += 1;
          await createClient(server.baseUrl, admin, `cluster-after-crash-${attempt}@example.com`, 5);
          return true;
        },
        () => `no deposit succeeded within ${BACK_WITHIN_MS} ms of the kill:\n${server.output().slice(-3000)}`,
        BACK_WITHIN_MS,
      );
      assert.equal(logged(server, /Embedded PostgreSQL restarted/).length, 1, server.output().slice(-3000));
      // The two API children and the worker child do not own the server: they say they wait, and that it is back.
      await waitFor(
        async () => logged(server, /is running again after/).length >= 1,
        () => `no attached child saw the server back:\n${server.output().slice(-3000)}`,
        10_000,
      );
      assert.ok(logged(server, /attached to is not running; waiting/).length >= 1);
      assert.equal(logged(server, /has not come back|forking another/).length, 0, server.output().slice(-3000));
    } finally {
      const ended = await server.stop();
      assert.equal(ended.code, 0, server.output().slice(-3000));
    }
  });

  it('exits non-zero when the server cannot come back, saying why', async () => {
    const server = await startKupaServer(EMBEDDED);
    let code: number | null | undefined;
    try {
      // Without PG_VERSION no PostgreSQL starts on this directory; the running one never reads it again.
      rmSync(join(server.dataDir, 'pg', 'PG_VERSION'));
      process.kill(postmasterPid(server.dataDir), 'SIGKILL');
      const liveStatuses = new Set<number | string>();
      void server.exited.then((ended) => (code = ended.code));
      await waitFor(
        async () => {
          const status = await fetch(`${server.baseUrl}/api/health/live`)
            .then((response) => response.status)
            .catch(() => 'no answer');
          liveStatuses.add(status);
          return code !== undefined;
        },
        () => `still running ${GIVE_UP_WITHIN_MS} ms after the kill:\n${server.output().slice(-3000)}`,
        GIVE_UP_WITHIN_MS,
      );
      process.stdout.write(`liveness answered meanwhile: ${[...liveStatuses].join(', ')}\n`);
      assert.equal(code, 1, server.output().slice(-3000));
      const failures = logged(server, /restart attempt \d of 5 failed/);
      assert.equal(failures.length, 5, server.output().slice(-3000));
      assert.ok(failures.every((record) => record.level === 'error'));
      assert.equal(logged(server, /could not be restarted in 5 attempts.*giving up/).length, 1, server.output());
    } finally {
      if (code === undefined) await server.stop({ signal: 'SIGKILL' });
      else await server.stop();
    }
  });

  it('adopts a PostgreSQL a killed run left behind, serves on it, and stops it on SIGTERM', async () => {
    const first = await startKupaServer(EMBEDDED);
    await first.stop({ signal: 'SIGKILL', keepData: true });
    const orphan = postmasterPid(first.dataDir);
    assert.ok(processAlive(orphan), 'SIGKILL of the server left its PostgreSQL running');
    const second = await startKupaServer(EMBEDDED, { restartOf: first });
    let postmasterFileLeft = true;
    let ended: { code: number | null } = { code: null };
    try {
      const admin = await signIn(second.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
      await createClient(second.baseUrl, admin, 'after-adoption@example.com', 5);
      assert.equal(postmasterPid(second.dataDir), orphan, 'the second run used the running server');
    } finally {
      ended = await second.stop({
        beforeCleanUp: (dataDir) => (postmasterFileLeft = existsSync(join(dataDir, 'pg', 'postmaster.pid'))),
      });
    }
    const orphanLeft = processAlive(orphan);
    // Not left running for the next test whatever the outcome.
    if (orphanLeft) process.kill(orphan, 'SIGKILL');
    assert.equal(orphanLeft, false, 'the adopted PostgreSQL still runs after SIGTERM');
    assert.equal(postmasterFileLeft, false);
    assert.equal(ended.code, 0, second.output().slice(-3000));
    assert.equal(logged(second, /Adopted the embedded PostgreSQL/).length, 1, second.output().slice(-3000));
    assert.equal(logged(second, /Adopted the embedded PostgreSQL/)[0].level, 'warn');
  });
});
