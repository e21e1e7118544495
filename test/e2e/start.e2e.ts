import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, freshDatabaseUrl, type KupaServer, startKupaServer } from '../support/kupa-server.ts';

/**
 * `npm start` as a newcomer runs it (README): one process serves the API, the staff console and the client portal,
 * seeds the demo logins on the embedded database, lets the `kupa` command line attach to that running database,
 * and on Ctrl+C shuts the server and its embedded PostgreSQL down cleanly. On a terminal it reads as a person expects
 * (docs/adr/0074-readable-first-run.md): readable log lines, no route table, and a banner with the URLs and, on the
 * embedded demo only, the demo logins; piped, its lines are JSON.
 */
const REPO_ROOT = join(import.meta.dirname, '..', '..');
const embedded = !process.env.DATABASE_URL;

let server: KupaServer;

/** Signs a demo account in (README: every demo login has the same password) and answers the status. */
async function demoSignInStatus(email: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'Kupa-Demo-2026!' }),
  });
  return response.status;
}

/**
 * Runs `npx kupa …` beside the server, on its database, and answers the JSON it prints last. Asynchronously: a
 * synchronous child would block this process for seconds, and the keep-alive connection `fetch` holds to the server
 * would then be closed under it by the server's idle timeout, failing the next request.
 */
async function kupaJson<Report>(...args: string[]): Promise<Report> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services/api/bin/kupa.js'), ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      KUPA_DATA_DIR: server.dataDir,
      DATABASE_URL: server.databaseUrl ?? '',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Report;
}

async function waitFor(done: () => boolean, failure: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm start', () => {
  before(async () => {
    server = await startKupaServer({ DEMO_DATA: '1', LOG_LEVEL: 'log' }, { entry: 'npm-start' });
  });

  after(async () => {
    await server?.stop();
  });

  it('serves the API, the staff console, the client portal and the API document', async () => {
    const version = await fetch(`${server.baseUrl}/api/common/app/version`);
    assert.equal(version.status, 200);
    assert.match(((await version.json()) as { version: string }).version, /^\d+\.\d+\.\d+/);
    for (const path of ['/', '/payments', '/admin', '/admin/clients']) {
      const page = await fetch(`${server.baseUrl}${path}`);
      assert.equal(page.status, 200, path);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/, path);
      assert.match(await page.text(), /<div id="root">/, path);
    }
    const docs = await fetch(`${server.baseUrl}/api/docs`);
    assert.equal(docs.status, 200);
  });

  it('seeds the demo logins, which sign in', async () => {
    // The banner names the demo logins on the embedded demo only (docs/adr/0074-readable-first-run.md); elsewhere
    // the address may still appear, in a mail written to the log, so only the password's absence is checked (below).
    if (embedded) assert.match(server.output(), /client@kupa\.local/);
    assert.equal(await demoSignInStatus('client@kupa.local'), 200);
  });

  it('logs JSON lines when its output is not a terminal, the route table left at debug', () => {
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const records = lines.map((line) => JSON.parse(line) as { context?: string; msg?: string });
    assert.ok(records.some((record) => record.msg?.startsWith('Kupa is up: ')));
    assert.deepEqual(
      records.filter((record) => ['RoutesResolver', 'RouterExplorer', 'InstanceLoader'].includes(record.context ?? '')),
      [],
    );
    // The demo password is shown on the embedded demo only, never where DATABASE_URL names a database.
    const demoLogins = records.filter((record) => record.msg?.startsWith('Demo logins'));
    assert.equal(demoLogins.length, embedded ? 1 : 0, JSON.stringify(demoLogins));
    if (!embedded) assert.doesNotMatch(server.output(), /Kupa-Demo-2026!/);
  });

  it('seeds a catalogue the first client sees, in both languages, and a history the admin dashboard shows', async () => {
    const token = async (email: string) => {
      const response = await fetch(`${server.baseUrl}/api/auth/signin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'Kupa-Demo-2026!' }),
      });
      return ((await response.json()) as { accessToken: string }).accessToken;
    };
    const plans = await fetch(`${server.baseUrl}/api/payment-plans/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await token('client@kupa.local')}` },
      body: '{}',
    });
    const page = (await plans.json()) as { content: Array<{ name: string; nameEn: string }> };
    assert.ok(page.content.length >= 4, `packages on sale: ${page.content.length}`);
    assert.ok(page.content.every((plan) => plan.name !== '' && plan.nameEn !== ''));
    const dashboard = await fetch(`${server.baseUrl}/api/dashboard`, {
      headers: { Authorization: `Bearer ${await token('admin@kupa.local')}` },
    });
    const figures = (await dashboard.json()) as { deposits: { thisMonth: number }; revenue: { thisMonth: number } };
    assert.ok(figures.deposits.thisMonth > 0 && figures.revenue.thisMonth > 0, JSON.stringify(figures));
    // Deposits by each method the demo has: the history holds a package paid by card on the sandbox card.
    const cards = await fetch(`${server.baseUrl}/api/payments/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await token('admin@kupa.local')}` },
      body: JSON.stringify({ methods: ['CARD'] }),
    });
    const card = (await cards.json()) as { content: Array<{ aggregator: string; status: string }> };
    assert.deepEqual(
      card.content.map((payment) => [payment.aggregator, payment.status]),
      [['STRIPE', 'SUCCESS']],
    );
  });

  it('runs `kupa ledger verify` beside the server, on the same database', async () => {
    const report = await kupaJson<{ ok: boolean; counts: { otherReadModelRows: number } }>(
      'ledger',
      'verify',
      '--json',
    );
    assert.equal(report.ok, true);
    // The demo users (and their activity-log rows) live in the server's database, so the command line saw that one
    // and not a new, empty one.
    const rows = report.counts.otherReadModelRows;
    assert.ok(rows >= 4, `rows of users, notes and activity log compared: ${rows}`);
  });

  it('rebuilds a read model beside the server, which keeps answering from it', async () => {
    const report = await kupaJson<{ eventsReplayed: number }>('projections', 'rebuild', 'users', '--json');
    assert.ok(report.eventsReplayed > 0);
    assert.equal(await demoSignInStatus('admin@kupa.local'), 200);
  });

  it('runs `npm run worker` beside the server: one of the two sends a sign-up mail, once, and it stops cleanly', async () => {
    const worker: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'scripts/start.mjs'), 'worker'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        KUPA_DATA_DIR: server.dataDir,
        DATABASE_URL: server.databaseUrl ?? '',
        // The server beside it runs the streaming simulator, so its worker does too, on a named database as well.
        KUPA_SANDBOX: '1',
        LOG_LEVEL: 'log',
        WORKER_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let workerOutput = '';
    worker.stdout?.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    worker.stderr?.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => /worker is running/.test(workerOutput),
        () => `worker did not start:\n${workerOutput}`,
      );
      const email = `worker-${Date.now()}@example.com`;
      const signUp = await fetch(`${server.baseUrl}/api/auth/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'Worker-Pass-1!', firstName: 'W', lastName: 'K', termsAccepted: true }),
      });
      assert.equal(signUp.status, 201);
      // Without SMTP_URL a mail is written, as one JSON log record, to the log of whichever process sent it.
      const sentLines = () =>
        `${server.output()}\n${workerOutput}`
          .split('\n')
          .filter((line) => line.includes('Mail written to the log') && line.includes(`"to":"${email}"`));
      await waitFor(
        () => sentLines().length > 0,
        () => 'no process sent the sign-up mail',
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(sentLines().length, 1, sentLines().join('\n'));
    } finally {
      worker.kill('SIGTERM');
    }
    assert.equal(await exited, 0, workerOutput.slice(-2000));
  });

  it('stops cleanly on Ctrl+C, the embedded PostgreSQL included', async () => {
    let postmasterLeft = false;
    const ended = await server.stop({
      signal: 'SIGINT',
      beforeCleanUp: (dataDir) => {
        postmasterLeft = existsSync(join(dataDir, 'pg', 'postmaster.pid'));
      },
    });
    assert.equal(ended.code, 0, server.output().slice(-2000));
    if (embedded) assert.equal(postmasterLeft, false, 'the embedded PostgreSQL left its postmaster.pid behind');
  });
});

/**
 * Runs `npm start`'s script on a pseudo-terminal (`script`, from Debian's essential bsdutils package), as a person at
 * a terminal sees it.
 */
describe('npm start on a terminal', () => {
  it('prints readable lines, no route table, and a banner with the URLs and the demo logins', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'kupa-e2e-tty-'));
    // The embedded PostgreSQL runs as the postgres user when we are root; it must be able to enter the directory.
    chmodSync(dataDir, 0o755);
    const database = await freshDatabaseUrl();
    const start = `'${process.execPath}' '${join(REPO_ROOT, 'scripts/start.mjs')}'`;
    const terminal = spawn('/usr/bin/script', ['-qfec', start, '/dev/null'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        KUPA_DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? '',
        KUPA_SANDBOX: '1',
        DEMO_DATA: '1',
        LOG_LEVEL: 'log',
        LOG_FORMAT: '',
        NO_COLOR: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    terminal.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => output.includes('Stop with Ctrl+C.') || terminal.exitCode !== null,
        () => `no banner within 90 s:\n${output}`,
        90_000,
      );
      const lines = output.replaceAll('\r', '').split('\n');
      assert.ok(lines.includes('  Kupa is up'), output);
      assert.ok(lines.includes(`  Client portal   ${baseUrl}/`), output);
      assert.ok(lines.includes(`  Staff console   ${baseUrl}/admin`), output);
      if (embedded) {
        assert.ok(lines.includes('  Demo logins (embedded demo database only), password Kupa-Demo-2026!'), output);
        assert.ok(lines.includes('    client      client@kupa.local'), output);
      } else {
        assert.doesNotMatch(output, /Kupa-Demo-2026!/);
      }
      // Readable lines (time, level, [context], message), not JSON, no route table, and no colour with NO_COLOR.
      assert.ok(
        lines.some((line) =>
          /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[NestApplication\] Nest application successfully started$/.test(line),
        ),
        output,
      );
      assert.deepEqual(
        lines.filter((line) => line.startsWith('{')),
        [],
      );
      assert.doesNotMatch(output, /RouterExplorer|RoutesResolver|Mapped \{/);
      assert.ok(!output.includes('\u001b['), 'coloured despite NO_COLOR');
      assert.equal((await fetch(`${baseUrl}/api/common/app/version`)).status, 200);
    } finally {
      // Ctrl+C, typed at the terminal.
      terminal.stdin.write('\u0003');
      const timer = setTimeout(() => terminal.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    assert.match(output, /SIGINT received, shutting down/);
  });
});
