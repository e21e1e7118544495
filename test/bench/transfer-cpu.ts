/**
 * What one balance transfer costs in CPU, counted only in this run's own processes, and optionally the same for a
 * second build in alternating windows (issue 36; docs/benchmarks.md, "The activity log after the commit"). A helper,
 * not a scenario of `npm run bench`, for A/B runs of one change on a machine shared with other work:
 *
 * - the bench's `postgres` group counts every PostgreSQL process of the server, other databases' backends included;
 *   this one counts the server's Node processes (API processes and worker) and only the backends connected to its
 *   own database (`pg_stat_activity.datname`), read from `/proc/<pid>/stat`;
 * - with `BENCH_COMPARE_ROOT` (another checkout, built) it starts that checkout's server beside this one's, each on
 *   its own fresh database, and runs their windows alternately, `BENCH_ROUNDS` (4) times per level, the order swapped
 *   every round: both see the same load from the rest of the machine, which separate runs minutes apart do not;
 *   `BENCH_COMPARE_ENV` (`NAME=value,…`) gives the compared server settings of its own, so that one build can be
 *   compared with itself under two settings (`BENCH_COMPARE_ROOT` this checkout).
 *
 * Each server runs `BENCH_WEB_CONCURRENCY` API processes (2) and its worker on the PostgreSQL named by `DATABASE_URL`,
 * with a sender and a recipient per client; each window is `BENCH_DURATION_MS` (8,000) of closed-loop one-cent
 * transfers at a level of `BENCH_TRANSFER_LEVELS` (`8,16` clients: two servers at 32 took more connections than a
 * shared PostgreSQL's 100, and a window with a failed answer is left out). A window's CPU is counted from its start until
 * every processor's checkpoint has reached the newest commit, so that work a processor does after the window (the
 * activity log, once it is written after the commit) is charged to the transfers that made it. Prints JSON: per build
 * and level the transfers, the mean rate, p50/p99 over every window, the processors' catch-up and CPU ms per transfer
 * by group, and the load averages at the start and the end.
 *
 * Build first (`npm run build:proto && npm run build -w @kupa/api`, and the same in the other checkout), then
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_COMPARE_ROOT=/path/to/other/checkout
 * npx tsx test/bench/transfer-cpu.ts` (about 4 minutes with the defaults).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { Api, type BenchUser, createUsers, deposit } from './http.ts';
import { cpuTicks, processorsBehind } from './party-cpu.ts';
import { round, runConcurrently, summarise } from './stats.ts';

const ADMIN = { email: 'cpu-admin@kupa.test', password: 'Cpu-Admin-Pass-1!' };
const LEVELS = (process.env.BENCH_TRANSFER_LEVELS ?? '8,16').split(',').map(Number);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WEB_CONCURRENCY = process.env.BENCH_WEB_CONCURRENCY ?? '2';
const COMPARE_ROOT = process.env.BENCH_COMPARE_ROOT;
/** Settings for the compared server only, `NAME=value` pairs split by commas: one build, two settings. */
const COMPARE_ENV = Object.fromEntries(
  (process.env.BENCH_COMPARE_ENV ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const WARM_UP_MS = 2000;
const CATCH_UP_LIMIT_MS = 60_000;
const TICKS_PER_SECOND = 100;

interface Party {
  label: string;
  server: KupaServer;
  db: pg.Client;
  databaseName: string;
  senders: BenchUser[];
  profileIds: string[];
  /** Transfers answered other than 201. */
  failed: number;
}

interface Tally {
  transfers: number;
  windows: number;
  discardedWindows: number;
  ratesPerSecond: number[];
  latenciesMs: number[];
  catchUpMs: number[];
  cpuMsByGroup: Record<string, number>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU ticks of the server's Node processes by role and of the backends of its database. */
async function startParty(
  label: string,
  repoRoot: string | undefined,
  clients: number,
  env: Record<string, string> = {},
): Promise<Party> {
  // The server makes a fresh database on DATABASE_URL's PostgreSQL and drops it when stopped.
  const server = await startKupaServer(
    {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'error',
      WEB_CONCURRENCY,
      WORKER_PORT: '0',
      ...env,
    },
    { repoRoot },
  );
  if (!server.databaseUrl) throw new Error('The server runs on no named database');
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  const api = new Api(server.baseUrl);
  const admin = await api.signIn(ADMIN.email, ADMIN.password);
  const prefix = `cpu-${randomUUID().slice(0, 8)}`;
  const senders = await createUsers(api, admin, clients, `${prefix}-s`, true);
  const recipients = await createUsers(api, admin, clients, `${prefix}-r`, false);
  const profileIds: string[] = [];
  for (const [index, sender] of senders.entries()) {
    await deposit(api, admin, sender.userUuid, 1000, 'transfer-cpu float');
    const recipient = recipients[index].userUuid;
    profileIds.push((await api.call<{ profileId: string }>('GET', `/users/${recipient}`, admin)).profileId);
  }
  const databaseName = new URL(server.databaseUrl).pathname.slice(1);
  return { label, server, db, databaseName, senders, profileIds, failed: 0 };
}

function transferOf(party: Party) {
  return async (worker: number) => {
    const response = await fetch(`${party.server.baseUrl}/api/payments/transfer`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${party.senders[worker].token}`,
        'Idempotency-Key': randomUUID(),
      },
      body: JSON.stringify({ recipient: party.profileIds[worker], amount: 0.01 }),
    });
    await response.arrayBuffer();
    // Counted and told, not fatal: one failed answer should not cost the other windows of a shared machine's run.
    if (response.status !== 201) {
      party.failed += 1;
      if (party.failed === 1)
        process.stderr.write(
          `${party.label}: a transfer answered ${response.status}\n${party.server.output().slice(-3000)}\n`,
        );
    }
  };
}

async function measureWindow(party: Party, concurrency: number, tally: Tally): Promise<void> {
  while ((await processorsBehind(party.db)) > 0) await sleep(50);
  const failedBefore = party.failed;
  const before = await cpuTicks(party);
  const { operations, perSecond, latenciesMs } = await runConcurrently(concurrency, DURATION_MS, transferOf(party));
  const windowEnded = performance.now();
  while ((await processorsBehind(party.db)) > 0 && performance.now() - windowEnded < CATCH_UP_LIMIT_MS) await sleep(20);
  const catchUpMs = Math.round(performance.now() - windowEnded);
  const after = await cpuTicks(party);
  // A window with a failed answer (PostgreSQL out of connections, with two servers on a shared one) is left out.
  if (party.failed > failedBefore) {
    tally.discardedWindows += 1;
    process.stderr.write(
      `[transfer-cpu] ${party.label} ${concurrency} clients: left out, ${party.failed - failedBefore} failed\n`,
    );
    return;
  }
  tally.catchUpMs.push(catchUpMs);
  for (const [group, pids] of after) {
    let ticks = 0;
    // A backend that started during the window spent all its ticks in it.
    for (const [pid, end] of pids) ticks += end - (before.get(group)?.get(pid) ?? 0);
    tally.cpuMsByGroup[group] = (tally.cpuMsByGroup[group] ?? 0) + (ticks * 1000) / TICKS_PER_SECOND;
  }
  tally.transfers += operations;
  tally.windows += 1;
  tally.ratesPerSecond.push(perSecond);
  tally.latenciesMs.push(...latenciesMs);
  process.stderr.write(
    `[transfer-cpu] ${party.label} ${concurrency} clients: ${operations} transfers, ${perSecond}/s\n`,
  );
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to a PostgreSQL server');
  const clients = Math.max(...LEVELS);
  const loadAtStart = loadavg().map((load) => round(load, 2));
  const parties: Party[] = [];
  try {
    parties.push(await startParty('this checkout', undefined, clients));
    if (COMPARE_ROOT) {
      const label =
        Object.keys(COMPARE_ENV).length > 0 ? `${COMPARE_ROOT} ${process.env.BENCH_COMPARE_ENV}` : COMPARE_ROOT;
      parties.push(await startParty(label, COMPARE_ROOT, clients, COMPARE_ENV));
    }
    for (const party of parties) await runConcurrently(clients, WARM_UP_MS, transferOf(party));
    const tallies = new Map<string, Tally>();
    for (const concurrency of LEVELS) {
      for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex += 1) {
        const order = roundIndex % 2 === 0 ? parties : [...parties].reverse();
        for (const party of order) {
          const key = `${party.label}|${concurrency}`;
          if (!tallies.has(key))
            tallies.set(key, {
              transfers: 0,
              windows: 0,
              discardedWindows: 0,
              ratesPerSecond: [],
              latenciesMs: [],
              catchUpMs: [],
              cpuMsByGroup: {},
            });
          await measureWindow(party, concurrency, tallies.get(key)!);
        }
      }
    }
    const results = [...tallies].map(([key, tally]) => {
      const [build, concurrency] = key.split('|');
      const latency = summarise(tally.latenciesMs);
      const perTransfer: Record<string, number> = {};
      let total = 0;
      for (const [group, ms] of Object.entries(tally.cpuMsByGroup)) {
        perTransfer[group] = round(ms / tally.transfers, 2);
        total += ms;
      }
      return {
        build,
        concurrency: Number(concurrency),
        windows: tally.windows,
        discardedWindows: tally.discardedWindows,
        transfers: tally.transfers,
        meanPerSecond: round(tally.ratesPerSecond.reduce((sum, rate) => sum + rate, 0) / tally.windows, 1),
        ratesPerSecond: tally.ratesPerSecond,
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        processorsCatchUpMs: tally.catchUpMs,
        cpuMsPerTransfer: { total: round(total / tally.transfers, 2), ...perTransfer },
      };
    });
    const failedTransfers = Object.fromEntries(parties.map((party) => [party.label, party.failed]));
    const loadAtEnd = loadavg().map((load) => round(load, 2));
    process.stdout.write(
      JSON.stringify(
        {
          webConcurrency: Number(WEB_CONCURRENCY),
          durationMs: DURATION_MS,
          rounds: ROUNDS,
          loadAtStart,
          loadAtEnd,
          failedTransfers,
          results,
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    for (const party of parties) {
      await party.db.end();
      await party.server.stop();
    }
  }
}

await main();
