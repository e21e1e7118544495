/**
 * `npm run bench`: the numbers docs/benchmarks.md holds to their targets, measured on the built server in one run.
 * Prints JSON to stdout and writes it to test/bench/results/latest.json. Loopback only; every phase is bounded in count
 * or time.
 *
 * Knobs (environment): BENCH_PAYMENTS (1000000), BENCH_HEAVY_WALLET_EVENTS (100000), BENCH_DURATION_MS per
 * concurrency level (8000), BENCH_SEARCH_ROUNDS (20). DATABASE_URL runs it on that PostgreSQL instead of the
 * embedded one.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startKupaServer, type KupaServer } from '../support/kupa-server.ts';
import { seedLedger, type SeedUser } from './seed-ledger.ts';
import { memoryOf, round, runConcurrently, summarise } from './stats.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const HEAVY_WALLET_EVENTS = Math.min(PAYMENTS, Number(process.env.BENCH_HEAVY_WALLET_EVENTS ?? 100_000));
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const SEARCH_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 20);
const CONCURRENCY_LEVELS = [1, 8, 32] as const;
const SEED_USERS = 200;
const DECIDE_SAMPLES = 200;
/** Every tenth ledger command of a worker is a manual deposit by the admin; the rest are transfers. */
const DEPOSIT_EVERY = 10;
const ADMIN = { email: 'bench-admin@kupa.test', password: 'Bench-Admin-Pass-1!' };
const USER_PASSWORD = 'Bench-User-Pass-1!';
const RSS_SAMPLE_MS = 50;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function embeddedUrl(dataDir: string): string {
  const pidLines = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://kupa:${encodeURIComponent(password)}@127.0.0.1:${Number(pidLines[3])}/kupa`;
}

class Api {
  constructor(private readonly baseUrl: string) {}

  async call<T>(method: string, path: string, token: string | null, body?: unknown, expected = [200, 201]): Promise<T> {
    const response = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status))
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async signIn(email: string, password: string): Promise<string> {
    return (await this.call<{ accessToken: string }>('POST', '/auth/signin', null, { email, password }, [200]))
      .accessToken;
  }
}

interface BenchUser extends SeedUser {
  token: string | null;
}

/** Access tokens live 15 minutes and a full run takes longer: a session signs in again before its token ages out. */
const TOKEN_REFRESH_AFTER_MS = 10 * 60_000;

class Session {
  private token = '';
  private signedInAt: number | null = null;

  constructor(
    private readonly api: Api,
    private readonly email: string,
    private readonly password: string,
  ) {}

  async current(): Promise<string> {
    if (this.signedInAt === null || performance.now() - this.signedInAt > TOKEN_REFRESH_AFTER_MS) {
      this.token = await this.api.signIn(this.email, this.password);
      this.signedInAt = performance.now();
    }
    return this.token;
  }
}

async function createUsers(
  api: Api,
  admin: string,
  count: number,
  prefix: string,
  signIn: boolean,
): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${prefix}-${index}@bench.kupa.test`;
    const created = await api.call<{ userUuid: string }>('POST', '/users', admin, {
      email,
      password: USER_PASSWORD,
      role: 'CLIENT',
      firstName: 'Bench',
      lastName: `User${String.fromCharCode(65 + (index % 26))}`,
    });
    users.push({ userUuid: created.userUuid, email, token: signIn ? await api.signIn(email, USER_PASSWORD) : null });
  }
  return users;
}

/** Runs the CLI beside the server, attached to the same database; answers its parsed JSON output and wall time. */
async function kupaCli(
  server: KupaServer,
  databaseUrl: string,
  args: string[],
): Promise<{ code: number; json: unknown; wallMs: number }> {
  const started = performance.now();
  const env = {
    ...process.env,
    KUPA_DATA_DIR: server.dataDir,
    DATABASE_URL: server.databaseUrl ? databaseUrl : '',
    LOG_LEVEL: 'error',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=8192', join(REPO_ROOT, 'services/api/bin/kupa.js'), ...args],
      { env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ code: code ?? 1, json: JSON.parse(line), wallMs });
      } catch {
        reject(
          new Error(
            `kupa ${args.join(' ')} printed no JSON (exit ${code}):\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`,
          ),
        );
      }
    });
  });
}

async function rawInsertRate(databaseUrl: string, concurrency: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency });
  try {
    const result = await runConcurrently(concurrency, DURATION_MS, async (worker, iteration) => {
      await pool.query('INSERT INTO bench_raw (worker, iteration, payload) VALUES ($1, $2, $3)', [
        worker,
        iteration,
        'x'.repeat(64),
      ]);
    });
    return result.perSecond;
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const report: Record<string, unknown> = {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGiB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
    },
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
    settings: {
      payments: PAYMENTS,
      heavyWalletEvents: HEAVY_WALLET_EVENTS,
      durationMsPerLevel: DURATION_MS,
      searchRounds: SEARCH_ROUNDS,
    },
  };
  log('starting the built server on a fresh database');
  const server = await startKupaServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
  });
  const databaseUrl = server.databaseUrl ?? embeddedUrl(server.dataDir);
  const db = new pg.Client({ connectionString: databaseUrl });
  // A failure is reported by the query that meets it; the idle client's own error event must not crash the run.
  db.on('error', (error) => log(`database connection: ${error.message}`));
  await db.connect();
  const api = new Api(server.baseUrl);
  try {
    const [{ version }] = (await db.query<{ version: string }>('SHOW server_version')).rows;
    (report.machine as Record<string, unknown>).postgres = version;
    const adminSession = new Session(api, ADMIN.email, ADMIN.password);
    let admin = await adminSession.current();
    const adminProfile = await api.call<{ userUuid: string }>('GET', '/users/me', admin);

    log('seeding users through the API');
    const pairs = await createUsers(api, admin, CONCURRENCY_LEVELS[CONCURRENCY_LEVELS.length - 1] * 2, 'pair', true);
    for (const user of pairs) {
      await api.call('POST', '/payments', admin, {
        userUuid: user.userUuid,
        amount: 1000,
        action: 'DEPOSIT',
        comment: 'Bench float',
      });
    }

    log('ledger commands and raw inserts at 1, 8, 32 clients');
    admin = await adminSession.current();
    await db.query(
      'CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, worker int NOT NULL, iteration int NOT NULL, payload text NOT NULL)',
    );
    const commands: Record<string, unknown>[] = [];
    for (const concurrency of CONCURRENCY_LEVELS) {
      const result = await runConcurrently(concurrency, DURATION_MS, async (worker, iteration) => {
        const [left, right] = [pairs[worker * 2], pairs[worker * 2 + 1]];
        const [from, to] = iteration % 2 === 0 ? [left, right] : [right, left];
        if (iteration % DEPOSIT_EVERY === DEPOSIT_EVERY - 1) {
          await api.call('POST', '/payments', admin, {
            userUuid: from.userUuid,
            amount: 1,
            action: 'DEPOSIT',
            comment: 'Bench deposit',
          });
        } else {
          await api.call('POST', '/payments/transfer', from.token, { recipient: to.email, amount: 0.01 });
        }
      });
      const rawPerSecond = await rawInsertRate(databaseUrl, concurrency);
      const latency = summarise(result.latenciesMs);
      commands.push({
        concurrency,
        commandsPerSecond: result.perSecond,
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        count: latency.count,
        rawInsertCommitsPerSecond: rawPerSecond,
        ratio: round(result.perSecond / rawPerSecond, 3),
      });
      log(`  ${concurrency} clients: ${result.perSecond} commands/s, raw ${rawPerSecond}/s`);
    }
    report.ledgerCommands = commands;

    log('verify over the command-generated ledger');
    const smallVerify = await kupaCli(server, databaseUrl, ['ledger', 'verify', '--json']);
    report.verifyCommandData = verifySummary(smallVerify);

    log(`seeding ${PAYMENTS} payments as events (${HEAVY_WALLET_EVENTS} on one wallet)`);
    admin = await adminSession.current();
    const seedUsers = await createUsers(api, admin, SEED_USERS, 'seed', false);
    const fresh = (await createUsers(api, admin, 1, 'fresh', false))[0];
    const seedStarted = performance.now();
    const seeded = await seedLedger(db, {
      payments: PAYMENTS,
      users: seedUsers.slice(1),
      heavyUser: seedUsers[0],
      heavyWalletEvents: HEAVY_WALLET_EVENTS,
      actor: { id: adminProfile.userUuid, email: ADMIN.email, role: 'ADMIN', name: 'Kupa Admin' },
      startAt: new Date('2024-01-01T00:00:00Z'),
    });
    report.seeding = {
      events: seeded.events,
      payments: PAYMENTS,
      seconds: round((performance.now() - seedStarted) / 1000, 1),
    };

    log('rebuilding the ledger read models from the events');
    const rebuilds: Record<string, unknown>[] = [];
    for (const name of ['payments', 'ledger-entries', 'wallet-snapshots', 'audit-log']) {
      const rebuilt = await kupaCli(server, databaseUrl, ['projections', 'rebuild', name, '--json']);
      const json = rebuilt.json as { eventsReplayed: number; elapsedMs: number; eventsPerSecond: number };
      rebuilds.push({ projection: name, ...json, cliWallMs: Math.round(rebuilt.wallMs) });
      log(`  ${name}: ${json.eventsPerSecond} events/s`);
    }
    report.rebuild = rebuilds;
    await db.query('VACUUM ANALYZE payments');
    await db.query('VACUUM ANALYZE ledger_entries');

    log('verify over the whole ledger');
    const bigVerify = await kupaCli(server, databaseUrl, ['ledger', 'verify', '--json']);
    report.verifyAll = verifySummary(bigVerify);

    log('decide latency: a wallet with a long stream vs a new one');
    admin = await adminSession.current();
    const decide: Record<string, unknown> = {};
    for (const [label, user] of [
      ['heavyWallet', seedUsers[0]],
      ['newWallet', fresh],
    ] as const) {
      const [{ version }] = (
        await db.query<{ version: number }>('SELECT version FROM streams WHERE stream_id = $1', [
          `wallet-${user.userUuid}`,
        ])
      ).rows.concat([{ version: 0 }]);
      const samples: number[] = [];
      for (let index = 0; index < DECIDE_SAMPLES; index += 1) {
        const begun = performance.now();
        await api.call('POST', '/payments', admin, {
          userUuid: user.userUuid,
          amount: 1,
          action: 'DEPOSIT',
          comment: 'Decide probe',
        });
        samples.push(performance.now() - begun);
      }
      decide[label] = { walletEventsBefore: version, ...summarise(samples) };
    }
    report.decideLatency = decide;

    log('search latency at scale');
    admin = await adminSession.current();
    // Seed e-mails are numbered; a three-digit one is a substring of no other, like a real customer's address.
    const client = { ...pairs[0], token: await api.signIn(pairs[0].email, USER_PASSWORD) };
    report.search = await measureSearch(api, admin, seedUsers[142], client);

    log('export of every payment');
    admin = await adminSession.current();
    report.export = await measureExport(server, admin);
    report.targets = judgeTargets(report);
    report.finishedAt = new Date().toISOString();
  } catch (error) {
    log(`failed; the server's last output:\n${server.output().slice(-4000)}`);
    throw error;
  } finally {
    await db.end().catch(() => undefined);
    await server.stop();
  }
  const json = JSON.stringify(report, null, 2);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'latest.json'), json + '\n');
  console.log(json);
}

/** The targets, each with the figure it is judged on, so a reader sees at once which are met. */
const TARGETS = {
  commandsToRawCommitRatioMin: 0.5,
  p99MsAt32ClientsMax: 25,
  searchP95MsMax: 30,
  exportRowsPerSecondMin: 100_000,
  exportPeakRssMiBMax: 200,
  rebuildEventsPerSecondMin: 20_000,
  heavyToNewWalletDecideRatioMax: 1.5,
} as const;

interface Judged {
  target: string;
  limit: number;
  measured: number;
  met: boolean;
}

function judgeTargets(report: Record<string, unknown>): { allMet: boolean; results: Judged[] } {
  const commands = report.ledgerCommands as Array<{ concurrency: number; ratio: number; p99Ms: number }>;
  const search = report.search as { overall: { p95Ms: number } };
  const exported = report.export as { rowsPerSecond: number; serverPeakRssDuringMiB: number };
  const rebuilds = report.rebuild as Array<{ projection: string; eventsPerSecond: number }>;
  const decide = report.decideLatency as Record<'heavyWallet' | 'newWallet', { p50Ms: number }>;
  const atMost = (target: string, limit: number, measured: number): Judged => ({
    target,
    limit,
    measured,
    met: measured <= limit,
  });
  const atLeast = (target: string, limit: number, measured: number): Judged => ({
    target,
    limit,
    measured,
    met: measured >= limit,
  });
  const results: Judged[] = [
    ...commands.map((level) =>
      atLeast(
        `commands/raw commit ratio at ${level.concurrency} clients`,
        TARGETS.commandsToRawCommitRatioMin,
        level.ratio,
      ),
    ),
    atMost(
      'command p99 ms at 32 clients',
      TARGETS.p99MsAt32ClientsMax,
      commands.find((level) => level.concurrency === 32)?.p99Ms ?? Infinity,
    ),
    atMost('search p95 ms at scale', TARGETS.searchP95MsMax, search.overall.p95Ms),
    atLeast('export rows/s', TARGETS.exportRowsPerSecondMin, exported.rowsPerSecond),
    atMost('export server peak RSS MiB', TARGETS.exportPeakRssMiBMax, exported.serverPeakRssDuringMiB),
    ...rebuilds.map((rebuild) =>
      atLeast(`rebuild ${rebuild.projection} events/s`, TARGETS.rebuildEventsPerSecondMin, rebuild.eventsPerSecond),
    ),
    atMost(
      'decide p50 on the long wallet / a new wallet',
      TARGETS.heavyToNewWalletDecideRatioMax,
      round(decide.heavyWallet.p50Ms / decide.newWallet.p50Ms, 2),
    ),
  ];
  return { allMet: results.every((result) => result.met), results };
}

function verifySummary(run: { code: number; json: unknown; wallMs: number }): Record<string, unknown> {
  const json = run.json as {
    ok: boolean;
    counts: { events: number };
    differenceCount: number;
    differences: unknown[];
    replayMs: number;
    totalMs: number;
  };
  return {
    firstDifferences: json.differences.slice(0, 5),
    exitCode: run.code,
    ok: json.ok,
    differences: json.differenceCount,
    events: json.counts.events,
    verifyMs: Math.round(json.totalMs),
    replayMs: Math.round(json.replayMs),
    eventsPerSecond: Math.round((json.counts.events * 1000) / json.totalMs),
    cliWallMs: Math.round(run.wallMs),
  };
}

async function measureSearch(
  api: Api,
  admin: string,
  seedUser: SeedUser,
  client: BenchUser,
): Promise<Record<string, unknown>> {
  const scenarios: Array<[string, string, string | null, Record<string, unknown>]> = [
    ['default newest first', '/payments/search', admin, {}],
    ['page 100 (offset 2000)', '/payments/search', admin, { page: 100 }],
    ['keyword: one user e-mail', '/payments/search', admin, { keyWord: seedUser.email }],
    ['keyword: comment text', '/payments/search', admin, { keyWord: 'wire from' }],
    ['keyword: payment id', '/payments/search', admin, { keyWord: '424242' }],
    ['type WITHDRAW', '/payments/search', admin, { types: ['WITHDRAW'] }],
    ['status PENDING (rare)', '/payments/search', admin, { statuses: ['PENDING'] }],
    ['date range of one week', '/payments/search', admin, { createdDate: { from: '2024-03-01', to: '2024-03-07' } }],
    ['sort by amount desc', '/payments/search', admin, { sorts: [{ id: 'amount', desc: true }] }],
    ['sort by e-mail', '/payments/search', admin, { sorts: [{ id: 'userEmail', desc: false }] }],
    ['sort by status', '/payments/search', admin, { sorts: [{ id: 'status', desc: false }] }],
    ['one user (staff tab)', `/payments/search/${seedUser.userUuid}`, admin, {}],
    ['client own rows', '/payments/search', client.token, {}],
  ];
  const all: number[] = [];
  const perScenario: Record<string, unknown>[] = [];
  for (const [name, path, token, body] of scenarios) {
    await api.call('POST', path, token, body, [200]);
    const samples: number[] = [];
    let total = 0;
    for (let round = 0; round < SEARCH_ROUNDS; round += 1) {
      const begun = performance.now();
      total = (await api.call<{ totalElements: number }>('POST', path, token, body, [200])).totalElements;
      samples.push(performance.now() - begun);
    }
    all.push(...samples);
    const summary = summarise(samples);
    perScenario.push({ scenario: name, totalElements: total, p50Ms: summary.p50Ms, p95Ms: summary.p95Ms });
  }
  const overall = summarise(all);
  return {
    overall: { count: overall.count, p50Ms: overall.p50Ms, p95Ms: overall.p95Ms, p99Ms: overall.p99Ms },
    scenarios: perScenario,
  };
}

async function measureExport(server: KupaServer, admin: string): Promise<Record<string, unknown>> {
  const before = memoryOf(server.pid, (path) => readFileSync(path, 'utf8'));
  let peakRss = before.rssMiB;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, memoryOf(server.pid, (path) => readFileSync(path, 'utf8')).rssMiB);
  }, RSS_SAMPLE_MS);
  const started = performance.now();
  let bytes = 0;
  let lineBreaks = 0;
  try {
    const response = await fetch(`${server.baseUrl}/api/payments/export`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: '{}',
    });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lineBreaks += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = lineBreaks - 1;
  return {
    rows,
    megabytes: round(bytes / 2 ** 20, 1),
    seconds: round(seconds, 2),
    rowsPerSecond: Math.round(rows / seconds),
    serverRssBeforeMiB: before.rssMiB,
    serverPeakRssDuringMiB: peakRss,
    serverRssGrowthMiB: round(peakRss - before.rssMiB, 1),
    serverLifetimeHighWaterMiB: memoryOf(server.pid, (path) => readFileSync(path, 'utf8')).hwmMiB,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
