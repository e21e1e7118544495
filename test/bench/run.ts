/**
 * `npm run bench`: the numbers docs/benchmarks.md holds to their targets, measured on the built server in one run.
 * Prints JSON to stdout and writes it to test/bench/results/latest.json. Loopback only; every phase is bounded in count
 * or time.
 *
 * Knobs (environment): BENCH_SCENARIOS (all; a comma-separated subset of SCENARIOS below), BENCH_PAYMENTS (1000000),
 * BENCH_HEAVY_WALLET_EVENTS (100000), BENCH_DURATION_MS per concurrency level (8000), BENCH_SEARCH_ROUNDS (20),
 * BENCH_RENEWALS (10000), BENCH_RENEWAL_OWNERS (100), BENCH_BULK_TARGETS (10000), BENCH_BULK_TRAFFIC_CLIENTS (8),
 * BENCH_SOAK_MS (600000), BENCH_TELEGRAM_CLIENTS (10000), BENCH_VERIFY_SINCE_DEPOSITS (5000: the deposits appended
 * after the whole-ledger verify for `verify --since-checkpoint` to check) and BENCH_WEB_CONCURRENCY (the cores).
 * DATABASE_URL runs it on that PostgreSQL instead of the embedded one. BENCH_VERIFY_BEFORE_CLI names another build's
 * `dist/cli.js` (an older commit compiled elsewhere): the whole-ledger verify then runs it and this build's in turn,
 * twice each on the same data, to compare them under the same load.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startKupaServer, type KupaServer } from '../support/kupa-server.ts';
import { Api, type BenchUser, createUsers, deposit, Session, USER_PASSWORD } from './http.ts';
import { seedLedger, type SeedUser } from './seed-ledger.ts';
import { memoryOfNodeTree, processRole, round, runConcurrently, summarise } from './stats.ts';
import { withCommitWaits } from './commit-waits.ts';
import { cpuProfileServerEnv, withCpuProfile } from './cpu-profile.ts';
import { cpuMsPerOperation, measureLevel, partyCpuMsPerOperation, withCpuUse } from './cpu-use.ts';
import { startPeer } from './peer.ts';
import { judgeTargets } from './targets.ts';
import { measureLighthouse, SIGNED_IN_PAGES } from './lighthouse.ts';
import { measureBulkAddDays } from './bulk.ts';
import { FakeTelegram } from '@kupa/api/testing';
import { measureTelegramBroadcast } from './telegram.ts';
import { measureSoak, measureStartup } from './operations.ts';
import { measurePurchases, measureRenewals, preparePurchases, type PurchaseSetup } from './subscriptions.ts';
import { measureSearchAtScale, seedPaymentsReadModel } from './search-scale.ts';
import { measurePartitioning } from './partition.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const HEAVY_WALLET_EVENTS = Math.min(PAYMENTS, Number(process.env.BENCH_HEAVY_WALLET_EVENTS ?? 100_000));
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const SEARCH_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 20);
/** The `search-scale` scenario's payments read model (ADR 0115): rows written by SQL, spread over these days. */
const SEARCH_SCALE_PAYMENTS = Number(process.env.BENCH_SEARCH_SCALE_PAYMENTS ?? 10_000_000);
const SEARCH_SCALE_DAYS = Number(process.env.BENCH_SEARCH_SCALE_DAYS ?? 1095);
const RENEWALS = Number(process.env.BENCH_RENEWALS ?? 10_000);
const RENEWAL_OWNERS = Math.min(RENEWALS, Number(process.env.BENCH_RENEWAL_OWNERS ?? 100));
const SOAK_MS = Number(process.env.BENCH_SOAK_MS ?? 600_000);
/** The bulk scenario's ADD_DAYS batch: its subscriptions (the issue's 10,000), their owners, and the other traffic. */
const BULK_TARGETS = Number(process.env.BENCH_BULK_TARGETS ?? 10_000);
const BULK_OWNERS = Math.min(BULK_TARGETS, Number(process.env.BENCH_BULK_OWNERS ?? 100));
const BULK_TRAFFIC_CLIENTS = Number(process.env.BENCH_BULK_TRAFFIC_CLIENTS ?? 8);
/** "Within minutes": the batch fails the scenario after this long. */
const BULK_TIMEOUT_MS = 30 * 60_000;
/** The Telegram scenario's broadcast: linked clients with announcements on Telegram (the issue's 10,000). */
const TELEGRAM_CLIENTS = Number(process.env.BENCH_TELEGRAM_CLIENTS ?? 10_000);
/** At 25 a second 10,000 messages take under 7 minutes; the scenario fails after this long. */
const TELEGRAM_TIMEOUT_MS = 30 * 60_000;
/** Deposits appended through the API after the whole-ledger verify, for `verify --since-checkpoint` (ADR 0111). */
const VERIFY_SINCE_DEPOSITS = Number(process.env.BENCH_VERIFY_SINCE_DEPOSITS ?? 5000);
const VERIFY_SINCE_CLIENTS = 8;
/** API processes of the bench's server (`WEB_CONCURRENCY`): one per core by default, as a production host runs. */
const WEB_CONCURRENCY = Number(process.env.BENCH_WEB_CONCURRENCY ?? cpus().length);
/** The soak's sampling window, and the first part of it left out while caches and pools fill. */
const SOAK_WINDOW_MS = Math.min(30_000, Math.max(1000, Math.round(SOAK_MS / 10)));
const SOAK_WARM_UP_MS = Math.min(60_000, Math.round(SOAK_MS / 5));
const CONCURRENCY_LEVELS = [1, 8, 32] as const;
const SEED_USERS = 200;
const DECIDE_SAMPLES = 200;
/** Every tenth ledger command of a worker is a manual deposit by the admin; the rest are transfers. */
const DEPOSIT_EVERY = 10;
/** What each pair user is funded with, in dollars: the peer's accounts start with the same balance. */
const PAIR_FLOAT = 1000;
const ADMIN = { email: 'bench-admin@kupa.test', password: 'Bench-Admin-Pass-1!' };
const RSS_SAMPLE_MS = 50;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function embeddedUrl(dataDir: string): string {
  const pidLines = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://kupa:${encodeURIComponent(password)}@127.0.0.1:${Number(pidLines[3])}/kupa`;
}

/**
 * What a run measures, in the order it runs them. `startup` times `npm start` on its own data directory before the
 * bench's server starts; `lighthouse` scores the client portal's `/login`, and `/payments` and `/packages` signed
 * in, on the fresh server (`BENCH_SCENARIOS=lighthouse` runs it alone). `commands` and `purchases` share the raw-commit measurement of each concurrency level;
 * `soak` runs at half the highest command rate `commands` measured (or measures it first). `telegram` broadcasts to
 * linked clients through the Telegram outbox and a fake Bot API that enforces Telegram's limits (ADR 0104); it runs
 * after every scenario that verifies or replays the ledger, since its clients are seeded by SQL. `rebuild`, `verify`
 * (the whole ledger), `decide`, `search` and `export` need the seeded million payments: choosing any of them seeds
 * and rebuilds (and reports the rebuild). `search-scale` writes BENCH_SEARCH_SCALE_PAYMENTS (10,000,000) payment rows
 * by SQL straight into the payments read model, over BENCH_SEARCH_SCALE_DAYS (1095) days, and times keyword searches
 * that miss and that hit (ADR 0115); it runs last, since those rows have no events behind them either. `peer` starts the
 * conventional NestJS + TypeORM ledger of test/bench/peer/ beside our server (issue 36) and, at each concurrency level,
 * times in turn its transfers, ours, our purchases and the raw commits.
 */
const SCENARIOS = [
  'startup',
  'lighthouse',
  'commands',
  'purchases',
  'peer',
  'soak',
  'renewals',
  'bulk',
  'rebuild',
  'verify',
  'decide',
  'search',
  'export',
  'partition',
  'telegram',
  'search-scale',
] as const;
type Scenario = (typeof SCENARIOS)[number];
const AT_SCALE: readonly Scenario[] = ['rebuild', 'verify', 'decide', 'search', 'export', 'partition'];

function selectedScenarios(): Set<Scenario> {
  const raw = (process.env.BENCH_SCENARIOS ?? '').trim();
  if (raw === '') return new Set(SCENARIOS);
  const names = raw.split(',').map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_SCENARIOS names unknown scenarios ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  return new Set(names as Scenario[]);
}

/** Runs the CLI beside the server, attached to the same database; answers its parsed JSON output and wall time. */
async function kupaCli(
  server: KupaServer,
  databaseUrl: string,
  args: string[],
  entry = join(REPO_ROOT, 'services/api/bin/kupa.js'),
): Promise<{ code: number; json: unknown; wallMs: number }> {
  const started = performance.now();
  const env = {
    ...process.env,
    KUPA_DATA_DIR: server.dataDir,
    DATABASE_URL: server.databaseUrl ? databaseUrl : '',
    // As the server it runs beside (test/support/kupa-server.ts): the simulator stands in for the streaming service.
    KUPA_SANDBOX: '1',
    LOG_LEVEL: 'error',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', entry, ...args], { env });
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

/**
 * What HTTP alone costs on this machine, at the same concurrency and through the same client as the commands: the
 * liveness probe (no authentication, no database) and the caller's own profile (a signed-in read of one user). No
 * ledger command can run faster than these, so they bound the commands' ratio to the raw commits from above.
 */
async function httpFloor(
  api: Api,
  users: BenchUser[],
  concurrency: number,
): Promise<{ livenessPerSecond: number; ownProfilePerSecond: number }> {
  const liveness = await runConcurrently(concurrency, DURATION_MS, async () => {
    await api.call('GET', '/health/live', null);
  });
  const ownProfile = await runConcurrently(concurrency, DURATION_MS, async (worker) => {
    await api.call('GET', '/users/me', users[worker * 2].token);
  });
  return { livenessPerSecond: liveness.perSecond, ownProfilePerSecond: ownProfile.perSecond };
}

const RAW_TABLE =
  'CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, worker int NOT NULL, iteration int NOT NULL, payload text NOT NULL)';

/**
 * Issue 36's peer: the conventional ledger of test/bench/peer/ (docs/benchmarks.md, "The peer"), run as the same
 * number of API processes as our server on the same PostgreSQL, and timed in turn with our transfers, our purchases and the raw
 * commits at each level, so that load on the shared machine falls on all of them alike. Ratios are ours ÷ the peer's.
 */
async function measurePeer(
  server: KupaServer,
  api: Api,
  db: pg.Client,
  databaseUrl: string,
  pairs: BenchUser[],
  purchaseSetup: PurchaseSetup,
): Promise<Record<string, unknown>> {
  log(`peer: starting the conventional ledger (${WEB_CONCURRENCY} API processes) on the same PostgreSQL`);
  const peer = await startPeer({
    adminDatabaseUrl: databaseUrl,
    processes: WEB_CONCURRENCY,
    emails: pairs.map((user) => user.email),
    balanceMinor: PAIR_FLOAT * 100,
  });
  try {
    await db.query(RAW_TABLE);
    const refusals = await peer.refusals();
    if (!refusals.ok) throw new Error(`the peer refuses wrongly: ${JSON.stringify(refusals)}`);
    // Each client moves one cent back and forth within its own pair, on both sides: no two clients share a lock.
    const direction = (worker: number, iteration: number): [number, number] =>
      iteration % 2 === 0 ? [worker * 2, worker * 2 + 1] : [worker * 2 + 1, worker * 2];
    const peerTransfer = async (worker: number, iteration: number): Promise<void> => {
      const [from, to] = direction(worker, iteration);
      await peer.transfer(from, pairs[to].email, 1);
    };
    const ourTransfer = async (worker: number, iteration: number): Promise<void> => {
      const [from, to] = direction(worker, iteration);
      await api.call('POST', '/payments/transfer', pairs[from].token, { recipient: pairs[to].email, amount: 0.01 });
    };
    // Neither side's first level pays for its JIT and its pools: both transfer untimed for a moment first.
    const warmUpMs = Math.min(2000, DURATION_MS);
    await runConcurrently(8, warmUpMs, peerTransfer);
    await runConcurrently(8, warmUpMs, ourTransfer);
    const levels: Record<string, unknown>[] = [];
    for (const concurrency of CONCURRENCY_LEVELS) {
      const peerTransfers = await measureLevel(peer.pid, concurrency, DURATION_MS, peerTransfer);
      await peer.idle();
      const ourTransfers = await measureLevel(server.pid, concurrency, DURATION_MS, ourTransfer);
      const purchases = await measurePurchases(
        api,
        db,
        databaseUrl,
        server.pid,
        purchaseSetup,
        concurrency,
        DURATION_MS,
        'peer-buy',
      );
      const rawPerSecond = await rawInsertRate(databaseUrl, concurrency);
      const purchasesPerSecond = purchases.purchasesPerSecond as number;
      const purchaseCpu = partyCpuMsPerOperation(purchases.cpuMsPerPurchase as Record<string, number>);
      levels.push({
        concurrency,
        peerTransfers,
        ourTransfers,
        ourPurchases: {
          perSecond: purchasesPerSecond,
          p50Ms: purchases.p50Ms,
          p99Ms: purchases.p99Ms,
          count: purchases.count,
          partyCpuMsPerOperation: purchaseCpu,
          cpuMsPerOperation: purchases.cpuMsPerPurchase,
          provisioningCatchUpMs: purchases.provisioningCatchUpMs,
        },
        rawInsertCommitsPerSecond: rawPerSecond,
        ratios: {
          transfersPerSecondOursToPeer: round(ourTransfers.perSecond / peerTransfers.perSecond, 3),
          cpuPerTransferOursToPeer: round(
            ourTransfers.partyCpuMsPerOperation / peerTransfers.partyCpuMsPerOperation,
            3,
          ),
          p99OursToPeer: round(ourTransfers.p99Ms / peerTransfers.p99Ms, 3),
          purchasesPerSecondToPeerTransfersPerSecond: round(purchasesPerSecond / peerTransfers.perSecond, 3),
          ourTransfersToRawCommits: round(ourTransfers.perSecond / rawPerSecond, 4),
          peerTransfersToRawCommits: round(peerTransfers.perSecond / rawPerSecond, 4),
          purchasesToRawCommits: round(purchasesPerSecond / rawPerSecond, 4),
        },
      });
      log(
        `  ${concurrency} clients: peer ${peerTransfers.perSecond} transfers/s (p99 ${peerTransfers.p99Ms} ms, ` +
          `${peerTransfers.partyCpuMsPerOperation} ms CPU), ours ${ourTransfers.perSecond}/s (p99 ${ourTransfers.p99Ms} ms, ` +
          `${ourTransfers.partyCpuMsPerOperation} ms CPU), purchases ${purchasesPerSecond}/s, raw ${rawPerSecond}/s`,
      );
    }
    const check = await peer.check();
    log(`  peer money check: ${check.ok ? 'ok' : 'FAILED'} (${check.transfers} transfers, ${check.entries} entries)`);
    if (!check.ok) throw new Error(`the peer's ledger does not add up: ${JSON.stringify(check)}`);
    return { processes: WEB_CONCURRENCY, accounts: pairs.length, warmUpMs, levels, refusals, check };
  } finally {
    await peer.stop();
  }
}

async function main(): Promise<void> {
  const scenarios = selectedScenarios();
  const atScale = AT_SCALE.some((scenario) => scenarios.has(scenario));
  const report: Record<string, unknown> = {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGiB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      // The machine is shared: the 1, 5 and 15 minute load averages say how busy it was around the run.
      loadAverageAtStart: loadavg().map((load) => round(load, 1)),
    },
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
    settings: {
      payments: PAYMENTS,
      heavyWalletEvents: HEAVY_WALLET_EVENTS,
      durationMsPerLevel: DURATION_MS,
      searchRounds: SEARCH_ROUNDS,
      searchScalePayments: SEARCH_SCALE_PAYMENTS,
      searchScaleDays: SEARCH_SCALE_DAYS,
      renewals: RENEWALS,
      renewalOwners: RENEWAL_OWNERS,
      bulkTargets: BULK_TARGETS,
      bulkOwners: BULK_OWNERS,
      bulkTrafficClients: BULK_TRAFFIC_CLIENTS,
      telegramClients: TELEGRAM_CLIENTS,
      soakMs: SOAK_MS,
      webConcurrency: WEB_CONCURRENCY,
      scenarios: SCENARIOS.filter((scenario) => scenarios.has(scenario)),
    },
  };
  log(`scenarios: ${[...scenarios].join(', ')}`);
  if (scenarios.has('startup')) {
    log('npm start until ready, on a new data directory and again on the same one');
    report.startup = await measureStartup();
    log(`  ${String((report.startup as Record<string, unknown>).startOnInitialisedDataMs)} ms on an initialised one`);
  }
  log('starting the built server on a fresh database');
  // The Telegram scenario's Bot API, and a broadcast hand-off fast enough that the Telegram outbox is what is measured.
  const telegram = scenarios.has('telegram') ? await FakeTelegram.start() : null;
  const serverEnv = {
    ...(telegram ? telegram.env({ BROADCAST_MAILS_PER_MINUTE: String(TELEGRAM_CLIENTS * 10) }) : {}),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
    WEB_CONCURRENCY: String(WEB_CONCURRENCY),
    // The forked worker's health and metrics port: any free one.
    WORKER_PORT: '0',
    ...cpuProfileServerEnv(),
  };
  const server = await startKupaServer(serverEnv);
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
    const mostClients = CONCURRENCY_LEVELS[CONCURRENCY_LEVELS.length - 1];

    if (scenarios.has('lighthouse')) {
      log(`Lighthouse (mobile) on the client portal: /login, then ${SIGNED_IN_PAGES.map((p) => `/${p}`).join(', ')}`);
      const [client] = await createUsers(api, admin, 1, 'lighthouse', false);
      await deposit(api, admin, client.userUuid, 120, 'Lighthouse float');
      report.lighthouse = await measureLighthouse(server.baseUrl, { email: client.email, password: USER_PASSWORD });
      const scores = report.lighthouse as Record<string, { score: number; hostBenchmarkIndex: number }>;
      log(
        `  ${Object.entries(scores)
          .map(([page, figures]) => `/${page} ${figures.score}`)
          .join(', ')} (host benchmark index ${scores.login.hostBenchmarkIndex})`,
      );
    }

    let pairs: BenchUser[] = [];
    let pairsSignedInAt = 0;
    if (scenarios.has('commands') || scenarios.has('soak') || scenarios.has('bulk') || scenarios.has('peer')) {
      log('seeding users through the API');
      pairs = await createUsers(api, admin, mostClients * 2, 'pair', true);
      pairsSignedInAt = performance.now();
      for (const user of pairs) await deposit(api, admin, user.userUuid, PAIR_FLOAT, 'Bench float');
    }
    const purchaseSetup =
      scenarios.has('purchases') || scenarios.has('peer') ? await preparePurchases(api, admin, mostClients) : null;

    if (scenarios.has('commands') || scenarios.has('purchases')) {
      log(
        `${scenarios.has('commands') ? 'ledger commands, ' : ''}raw inserts${scenarios.has('purchases') ? ', purchases' : ''} at 1, 8, 32 clients`,
      );
      admin = await adminSession.current();
      await db.query(RAW_TABLE);
      const commands: Record<string, unknown>[] = [];
      const purchases: Record<string, unknown>[] = [];
      for (const concurrency of CONCURRENCY_LEVELS) {
        // The profiler, when asked for, watches the level the targets judge.
        const profiled = concurrency === mostClients ? `commands-${concurrency}` : null;
        const measured = scenarios.has('commands')
          ? await withCommitWaits(databaseUrl, () =>
              withCpuUse(server.pid, () =>
                withCpuProfile(server.pid, profiled, () =>
                  runConcurrently(concurrency, DURATION_MS, async (worker, iteration) => {
                    const [left, right] = [pairs[worker * 2], pairs[worker * 2 + 1]];
                    const [from, to] = iteration % 2 === 0 ? [left, right] : [right, left];
                    if (iteration % DEPOSIT_EVERY === DEPOSIT_EVERY - 1) {
                      await deposit(api, admin, from.userUuid, 1, 'Bench deposit');
                    } else {
                      await api.call('POST', '/payments/transfer', from.token, { recipient: to.email, amount: 0.01 });
                    }
                  }),
                ),
              ),
            )
          : null;
        const raw = await withCommitWaits(databaseUrl, () => rawInsertRate(databaseUrl, concurrency));
        const rawPerSecond = raw.result;
        if (measured) {
          const {
            result: {
              result: { result, cpuProfile },
              cpuUse,
            },
            commitWaits,
          } = measured;
          const latency = summarise(result.latenciesMs);
          const floor = await httpFloor(api, pairs, concurrency);
          commands.push({
            concurrency,
            commandsPerSecond: result.perSecond,
            p50Ms: latency.p50Ms,
            p99Ms: latency.p99Ms,
            count: latency.count,
            rawInsertCommitsPerSecond: rawPerSecond,
            ratio: round(result.perSecond / rawPerSecond, 3),
            httpFloor: {
              ...floor,
              livenessRatio: round(floor.livenessPerSecond / rawPerSecond, 3),
              ownProfileRatio: round(floor.ownProfilePerSecond / rawPerSecond, 3),
            },
            commitWaits,
            rawCommitWaits: raw.commitWaits,
            cpuMsPerCommand: cpuMsPerOperation(cpuUse, latency.count),
            busyShareOfCores: cpuUse.busyShareOfCores,
            ...(cpuProfile ? { cpuProfile } : {}),
          });
          log(
            `  ${concurrency} clients: ${result.perSecond} commands/s, raw ${rawPerSecond}/s, ` +
              `liveness ${floor.livenessPerSecond}/s, own profile ${floor.ownProfilePerSecond}/s, ` +
              `waiting for the WAL ${commitWaits.walWaitShare}, longest WAL wait ${commitWaits.longestWalWaitMs} ms`,
          );
        }
        if (purchaseSetup && scenarios.has('purchases')) {
          const level = await measurePurchases(
            api,
            db,
            databaseUrl,
            server.pid,
            purchaseSetup,
            concurrency,
            DURATION_MS,
          );
          const perSecond = level.purchasesPerSecond as number;
          purchases.push({
            ...level,
            rawInsertCommitsPerSecond: rawPerSecond,
            ratio: round(perSecond / rawPerSecond, 3),
          });
          log(
            `  ${concurrency} clients: ${perSecond} purchases/s (p99 ${String(level.p99Ms)} ms), raw ${rawPerSecond}/s`,
          );
        }
      }
      if (scenarios.has('commands')) report.ledgerCommands = commands;
      if (purchaseSetup && scenarios.has('purchases')) report.purchases = purchases;
    }

    if (scenarios.has('peer') && purchaseSetup) {
      // Our access tokens live 15 minutes: sign the pairs in again when theirs could age out inside the scenario.
      if (performance.now() - pairsSignedInAt > 5 * 60_000) {
        for (const user of pairs) user.token = await api.signIn(user.email, USER_PASSWORD);
        pairsSignedInAt = performance.now();
      }
      report.peer = await measurePeer(server, api, db, databaseUrl, pairs, purchaseSetup);
    }

    if (scenarios.has('soak')) {
      admin = await adminSession.current();
      const measured = (report.ledgerCommands as Array<{ commandsPerSecond: number }> | undefined) ?? [];
      let maximumPerSecond = Math.max(0, ...measured.map((level) => level.commandsPerSecond));
      if (maximumPerSecond === 0) {
        log(`soak: measuring the maximum first (${mostClients} clients, ${DURATION_MS} ms)`);
        maximumPerSecond = (
          await runConcurrently(mostClients, DURATION_MS, async (worker, iteration) => {
            const [left, right] = [pairs[worker * 2], pairs[worker * 2 + 1]];
            const [from, to] = iteration % 2 === 0 ? [left, right] : [right, left];
            await api.call('POST', '/payments/transfer', from.token, { recipient: to.email, amount: 0.01 });
          })
        ).perSecond;
      }
      log(`soak: ${SOAK_MS} ms of transfers at ${round(maximumPerSecond / 2, 1)}/s (half of ${maximumPerSecond}/s)`);
      for (const user of pairs) user.token = await api.signIn(user.email, USER_PASSWORD);
      const { result: soak, commitWaits } = await withCommitWaits(databaseUrl, () =>
        measureSoak({
          api,
          serverPid: server.pid,
          pairs,
          ratePerSecond: maximumPerSecond / 2,
          durationMs: SOAK_MS,
          windowMs: SOAK_WINDOW_MS,
          warmUpMs: SOAK_WARM_UP_MS,
        }),
      );
      report.soak = { ...soak, commitWaits };
      log(
        `  errors ${String(soak.errors)}, RSS ${String(soak.rssGrowthPercent)} %, p99 ${String(soak.p99DriftPercent)} %, ` +
          `${commitWaits.stalledSamples} of ${commitWaits.samples} samples stalled on the WAL, longest WAL wait ${commitWaits.longestWalWaitMs} ms`,
      );
    }

    if (scenarios.has('renewals')) {
      log(`renewal sweep over ${RENEWALS} subscriptions due at once`);
      report.renewals = await measureRenewals({
        api,
        db,
        admin: adminSession,
        databaseUrl,
        serverEnv: {
          KUPA_DATA_DIR: server.dataDir,
          PUBLIC_URL: server.baseUrl,
          PORT: new URL(server.baseUrl).port,
          DEMO_DATA: '0',
          LOG_LEVEL: 'error',
        },
        subscriptions: RENEWALS,
        owners: RENEWAL_OWNERS,
        seedConcurrency: mostClients,
      });
      log(`  ${String((report.renewals as Record<string, unknown>).renewalsPerSecond)} renewals/s`);
    }

    if (scenarios.has('bulk')) {
      log(
        `bulk: ${BULK_TARGETS} subscriptions get 2 days as one batch, beside transfers at ${BULK_TRAFFIC_CLIENTS} clients`,
      );
      report.bulk = await measureBulkAddDays({
        api,
        db,
        admin: adminSession,
        subscriptions: BULK_TARGETS,
        owners: BULK_OWNERS,
        seedConcurrency: mostClients,
        pairs,
        trafficClients: Math.min(BULK_TRAFFIC_CLIENTS, pairs.length / 2),
        baselineMs: Math.max(DURATION_MS, 15_000),
        days: 2,
        timeoutMs: BULK_TIMEOUT_MS,
      });
      const bulk = report.bulk as { batchSeconds: number; targetsPerSecond: number };
      log(`  the batch took ${bulk.batchSeconds} s (${bulk.targetsPerSecond} targets/s)`);
    }

    if (scenarios.has('commands') || scenarios.has('purchases') || scenarios.has('renewals') || scenarios.has('bulk')) {
      log('verify over the command-generated ledger');
      const smallVerify = await kupaCli(server, databaseUrl, ['ledger', 'verify', '--json']);
      report.verifyCommandData = verifySummary(smallVerify);
    }

    if (atScale) {
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
      // The rebuilds analysed their tables; the vacuum also marks the refilled pages all-visible, as autovacuum would
      // soon after on a running server, so that search and export start from the state such a server settles in.
      await db.query('VACUUM ANALYZE payments');
      await db.query('VACUUM ANALYZE ledger_entries');
      report.databaseSize = await databaseSize(db);
      log(`  ${JSON.stringify(report.databaseSize)}`);

      if (scenarios.has('verify')) {
        log('verify over the whole ledger');
        const beforeCli = process.env.BENCH_VERIFY_BEFORE_CLI;
        const rounds: Record<string, unknown>[] = [];
        for (const label of beforeCli ? ['before', 'after', 'before', 'after'] : ['this build']) {
          const run = await kupaCli(
            server,
            databaseUrl,
            ['ledger', 'verify', '--json'],
            label === 'before' && beforeCli ? beforeCli : undefined,
          );
          rounds.push({ label, ...verifySummary(run) });
          log(`  ${label}: ${JSON.stringify(rounds[rounds.length - 1])}`);
        }
        report.verifyRounds = rounds;
        report.verifyAll = rounds[rounds.length - 1];

        // The daily verify (ADR 0111): the whole-ledger run above wrote a checkpoint; a day's new events follow it.
        log(`verify --since-checkpoint after ${VERIFY_SINCE_DEPOSITS} more deposits`);
        admin = await adminSession.current();
        let next = 0;
        await Promise.all(
          Array.from({ length: VERIFY_SINCE_CLIENTS }, async () => {
            while (next < VERIFY_SINCE_DEPOSITS) {
              const user = seedUsers[1 + (next % (seedUsers.length - 1))];
              next += 1;
              await deposit(api, admin, user.userUuid, 1, 'bench: after the checkpoint');
            }
          }),
        );
        const since = await kupaCli(server, databaseUrl, ['ledger', 'verify', '--since-checkpoint', '--json']);
        report.verifySinceCheckpoint = {
          deposits: VERIFY_SINCE_DEPOSITS,
          ...verifySinceSummary(since),
          wholeLedgerVerifyMs: (report.verifyAll as { verifyMs: number }).verifyMs,
          ...(await checkpointSize(db)),
        };
        log(`  ${JSON.stringify(report.verifySinceCheckpoint)}`);
      }

      if (scenarios.has('decide')) {
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
            await deposit(api, admin, user.userUuid, 1, 'Decide probe');
            samples.push(performance.now() - begun);
          }
          decide[label] = { walletEventsBefore: version, ...summarise(samples) };
        }
        report.decideLatency = decide;
      }

      if (scenarios.has('search')) {
        log('search latency at scale');
        admin = await adminSession.current();
        // Seed e-mails are numbered; a three-digit one is a substring of no other, like a real customer's address.
        // The client whose own rows are searched is the first pair (its transfers), or a seeded client without them.
        const own = pairs[0] ?? seedUsers[1];
        const client = { ...own, token: await api.signIn(own.email, USER_PASSWORD) };
        report.search = await measureSearch(api, admin, seedUsers[142], client);
      }

      if (scenarios.has('export')) {
        log('export of every payment');
        admin = await adminSession.current();
        report.export = await measureExport(server, admin);
      }

      // Last: it leaves events partitioned (ADR 0114), and every scenario before measured the plain table.
      if (scenarios.has('partition')) {
        log('partitioned events against the plain table: appends, readAll, verify, rebuild; partitioned live');
        report.partition = await measurePartitioning({
          databaseUrl,
          api,
          admin: () => adminSession.current(),
          users: seedUsers.slice(1),
          durationMs: DURATION_MS,
          kupa: (args) => kupaCli(server, databaseUrl, args),
        });
        log(`  ${JSON.stringify(report.partition)}`);
      }
    }
    // After everything that verifies or replays the ledger: its clients are rows without events behind them (a whole
    // verify after it found the users read model holding 10,000 rows no replay makes).
    if (telegram) {
      log(
        `telegram: a broadcast to ${TELEGRAM_CLIENTS} linked clients through the Telegram outbox, Telegram's limits enforced`,
      );
      report.telegram = await measureTelegramBroadcast({
        api,
        db,
        admin: await adminSession.current(),
        telegram,
        clients: TELEGRAM_CLIENTS,
        timeoutMs: TELEGRAM_TIMEOUT_MS,
      });
      const figures = report.telegram as { drainSeconds: number; messagesPerSecond: number; tooManyRequests: number };
      log(
        `  drained in ${figures.drainSeconds} s (${figures.messagesPerSecond} messages/s, ${figures.tooManyRequests} answered 429)`,
      );
    }

    if (scenarios.has('search-scale')) {
      // Last: the rows it writes have no events behind them, so nothing that verifies or replays may run after it.
      const options = { payments: SEARCH_SCALE_PAYMENTS, days: SEARCH_SCALE_DAYS, rounds: SEARCH_ROUNDS, log };
      log(`search at scale: writing ${SEARCH_SCALE_PAYMENTS} payment rows by SQL`);
      const seeding = await seedPaymentsReadModel(db, options);
      log(
        `  seeded in ${String(seeding.totalSeconds)} s; load ${loadavg()
          .map((load) => round(load, 1))
          .join(' ')}`,
      );
      report.searchScale = {
        seeding,
        loadAverageBefore: loadavg().map((load) => round(load, 1)),
        ...(await measureSearchAtScale(api, await adminSession.current(), db, databaseUrl, options)),
        loadAverageAfter: loadavg().map((load) => round(load, 1)),
      };
    }
    report.targets = judgeTargets(report);
    (report.machine as Record<string, unknown>).loadAverageAtEnd = loadavg().map((load) => round(load, 1));
    report.finishedAt = new Date().toISOString();
  } catch (error) {
    log(`failed; the server's last output:\n${server.output().slice(-4000)}`);
    // What the scenarios before the failure measured is kept: a full run is hours on a slow machine, and one that
    // failed in its last scenario once took every figure of the others with it.
    writeReport('failed.json', { ...report, failed: error instanceof Error ? error.message : String(error) });
    log('what was measured before the failure: test/bench/results/failed.json');
    throw error;
  } finally {
    await db.end().catch(() => undefined);
    await server.stop();
    await telegram?.stop();
  }
  console.log(writeReport('latest.json', report));
}

/** Writes a report to test/bench/results/<name> (not committed) and returns its JSON. */
function writeReport(name: string, report: Record<string, unknown>): string {
  const json = JSON.stringify(report, null, 2);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', name), json + '\n');
  return json;
}

function verifySummary(run: { code: number; json: unknown; wallMs: number }): Record<string, unknown> {
  const json = run.json as {
    ok: boolean;
    counts: { events: number };
    differenceCount: number;
    differences: unknown[];
    replayMs: number;
    totalMs: number;
    phasesMs?: Record<string, number>;
  };
  return {
    firstDifferences: json.differences.slice(0, 5),
    exitCode: run.code,
    ok: json.ok,
    differences: json.differenceCount,
    events: json.counts.events,
    verifyMs: Math.round(json.totalMs),
    replayMs: Math.round(json.replayMs),
    phasesMs: Object.fromEntries(Object.entries(json.phasesMs ?? {}).map(([phase, ms]) => [phase, Math.round(ms)])),
    eventsPerSecond: Math.round((json.counts.events * 1000) / json.totalMs),
    cliWallMs: Math.round(run.wallMs),
  };
}

function verifySinceSummary(run: { code: number; json: unknown; wallMs: number }): Record<string, unknown> {
  const json = run.json as {
    outcome: string;
    counts: Record<string, number> & { eventsReplayed: number; streamsTouched: number };
    differenceCount: number;
    differences: unknown[];
    totalMs: number;
    phasesMs: Record<string, number>;
  };
  return {
    firstDifferences: json.differences.slice(0, 5),
    exitCode: run.code,
    outcome: json.outcome,
    differences: json.differenceCount,
    eventsReplayed: json.counts.eventsReplayed,
    streamsTouched: json.counts.streamsTouched,
    bucketsTouched: json.counts.bucketsTouched,
    headRowsRead: json.counts.headRowsRead,
    headRowsWritten: json.counts.headRowsWritten,
    verifyMs: Math.round(json.totalMs),
    seconds: round(json.totalMs / 1000, 2),
    phasesMs: Object.fromEntries(Object.entries(json.phasesMs).map(([phase, ms]) => [phase, Math.round(ms)])),
    eventsPerSecond: Math.round((json.counts.eventsReplayed * 1000) / json.totalMs),
    cliWallMs: Math.round(run.wallMs),
  };
}

/**
 * What the seeded ledger takes on disk once its read models are rebuilt (README, Production: Sizing): the whole
 * database, the events table with its indexes, and the largest tables, beside the events and streams they hold.
 */
async function databaseSize(db: pg.Client): Promise<Record<string, unknown>> {
  const [totals] = (
    await db.query<{ database: string; events_table: string; events: string; streams: string }>(
      `SELECT pg_database_size(current_database())::text AS database,
              pg_total_relation_size('events')::text AS events_table,
              (SELECT count(*) FROM events)::text AS events,
              (SELECT count(*) FROM streams)::text AS streams`,
    )
  ).rows;
  const largest = (
    await db.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 6`,
    )
  ).rows;
  const events = Number(totals.events);
  const mib = (bytes: number): number => round(bytes / 2 ** 20, 1);
  return {
    events,
    streams: Number(totals.streams),
    databaseMiB: mib(Number(totals.database)),
    eventsTableMiB: mib(Number(totals.events_table)),
    databaseBytesPerEvent: Math.round(Number(totals.database) / events),
    eventsTableBytesPerEvent: Math.round(Number(totals.events_table) / events),
    largestTablesMiB: Object.fromEntries(largest.map((table) => [table.name, mib(Number(table.bytes))])),
  };
}

/** The newest checkpoint's rows (one head per stream, one balance per account) and their tables' size on disk. */
async function checkpointSize(db: pg.Client): Promise<Record<string, unknown>> {
  // The one current set of state rows, in buckets (ADR 0122).
  const [row] = (
    await db.query<{ heads: string; balances: string; buckets: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ledger_verify_state_heads)::text AS heads,
              (SELECT count(*) FROM ledger_verify_state_balances)::text AS balances,
              (SELECT count(*) FROM ledger_verify_state_buckets)::text AS buckets,
              (pg_total_relation_size('ledger_verify_state_heads')
                + pg_total_relation_size('ledger_verify_state_balances')
                + pg_total_relation_size('ledger_verify_state_buckets'))::text AS bytes`,
    )
  ).rows;
  return {
    checkpointHeadRows: Number(row.heads),
    checkpointBalanceRows: Number(row.balances),
    checkpointBuckets: Number(row.buckets),
    checkpointTablesMiB: round(Number(row.bytes) / 2 ** 20, 1),
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
  const before = memoryOfNodeTree(server.pid);
  let peakRss = before.rssMiB;
  // Each process's own peak as well: the sum covers the primary, the API processes and the worker, and a growth of
  // the sum says nothing of which of them grew (the one serving the export, or a worker still catching up).
  const peakByPid = new Map(before.rssMiBByPid);
  const sampler = setInterval(() => {
    const now = memoryOfNodeTree(server.pid);
    peakRss = Math.max(peakRss, now.rssMiB);
    for (const [pid, rssMiB] of now.rssMiBByPid) peakByPid.set(pid, Math.max(peakByPid.get(pid) ?? 0, rssMiB));
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
      // indexOf, not a byte loop: the bench's client shares the cores it measures the server on.
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lineBreaks += 1;
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
    serverRssGrowthByProcessMiB: Object.fromEntries(
      [...peakByPid].map(([pid, peak]) => [
        `${pid} ${processRole(pid)}`,
        round(peak - (before.rssMiBByPid.get(pid) ?? 0), 1),
      ]),
    ),
    serverLifetimeHighWaterMiB: memoryOfNodeTree(server.pid).hwmMiB,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
