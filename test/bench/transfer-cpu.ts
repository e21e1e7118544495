/**
 * What one balance transfer costs in CPU, counted only in this run's own processes (issue 36; docs/benchmarks.md,
 * "The activity log after the commit"). A helper, not a scenario of `npm run bench`, for A/B runs of one change on a
 * machine shared with other work: the bench's `postgres` group counts every PostgreSQL process of the server, other
 * databases' backends included, while this one counts the server's Node processes (API processes and worker) and only
 * the backends connected to its own database (`pg_stat_activity.datname`), read from `/proc/<pid>/stat`.
 *
 * It starts the built server (build first: `npm run build:proto && npm run build -w @kupa/api`) with
 * `BENCH_WEB_CONCURRENCY` API processes (2) on a fresh database of the PostgreSQL named by `DATABASE_URL`, makes a
 * sender and a recipient per client, funds the senders, warms up, and for each level of `BENCH_TRANSFER_LEVELS`
 * (`1,8,32` clients) runs `BENCH_DURATION_MS` (8,000) of closed-loop one-cent transfers. The CPU of a level is counted
 * from its start until every processor's checkpoint has reached the newest commit, so that work a processor does
 * after the window (the activity log, when it is written after the commit) is charged to the transfers that made it.
 * Prints JSON: per level the rate, p50/p99, the processors' catch-up time and CPU ms per transfer by group.
 *
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/transfer-cpu.ts` (about 90 s).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { freshDatabaseUrl, startKupaServer } from '../support/kupa-server.ts';
import { Api, createUsers, deposit } from './http.ts';
import { nodeTreeOf, processRole, readProcessTable, round, runConcurrently, summarise } from './stats.ts';

const ADMIN = { email: 'cpu-admin@kupa.test', password: 'Cpu-Admin-Pass-1!' };
const LEVELS = (process.env.BENCH_TRANSFER_LEVELS ?? '1,8,32').split(',').map(Number);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const WEB_CONCURRENCY = process.env.BENCH_WEB_CONCURRENCY ?? '2';
const WARM_UP_MS = 2000;
const CATCH_UP_LIMIT_MS = 60_000;
const TICKS_PER_SECOND = 100;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU ticks of the server's Node processes by role and of the backends of its database. */
async function cpuTicks(serverPid: number, db: pg.Client, database: string): Promise<Map<string, Map<number, number>>> {
  const backends = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  const table = readProcessTable();
  const groups = new Map<string, Map<number, number>>();
  const add = (group: string, pid: number) => {
    const entry = table.get(pid);
    if (!entry) return;
    if (!groups.has(group)) groups.set(group, new Map());
    groups.get(group)!.set(pid, entry.cpuTicks);
  };
  for (const pid of nodeTreeOf(serverPid, table)) add(`server ${processRole(pid)}`, pid);
  for (const { pid } of backends.rows) add('postgres (own database)', pid);
  return groups;
}

function cpuMsSince(before: Map<string, Map<number, number>>, after: Map<string, Map<number, number>>) {
  const spent: Record<string, number> = {};
  for (const [group, pids] of after) {
    let ticks = 0;
    // A backend that started during the level spent all its ticks in it.
    for (const [pid, end] of pids) ticks += end - (before.get(group)?.get(pid) ?? 0);
    spent[group] = (ticks * 1000) / TICKS_PER_SECOND;
  }
  return spent;
}

async function processorsBehind(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ behind: number }>(
    `SELECT count(*)::int AS behind FROM checkpoints
      WHERE commit_position < (SELECT coalesce(max(commit_position), 0) FROM event_commits)`,
  );
  return rows[0].behind;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to a PostgreSQL server');
  const database = await freshDatabaseUrl();
  if (!database) throw new Error('No database');
  const databaseName = new URL(database.url).pathname.slice(1);
  const server = await startKupaServer({
    DATABASE_URL: database.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
    WEB_CONCURRENCY,
    WORKER_PORT: '0',
  });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const api = new Api(server.baseUrl);
    const admin = await api.signIn(ADMIN.email, ADMIN.password);
    const clients = Math.max(...LEVELS);
    const prefix = `cpu-${randomUUID().slice(0, 8)}`;
    const senders = await createUsers(api, admin, clients, `${prefix}-s`, true);
    const recipients = await createUsers(api, admin, clients, `${prefix}-r`, false);
    const profileIds: string[] = [];
    for (const [index, sender] of senders.entries()) {
      await deposit(api, admin, sender.userUuid, 1000, 'transfer-cpu float');
      const recipient = recipients[index].userUuid;
      profileIds.push((await api.call<{ profileId: string }>('GET', `/users/${recipient}`, admin)).profileId);
    }
    const transfer = async (worker: number) => {
      const response = await fetch(`${server.baseUrl}/api/payments/transfer`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${senders[worker].token}`,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({ recipient: profileIds[worker], amount: 0.01 }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`Transfer answered ${response.status}`);
    };
    await runConcurrently(clients, WARM_UP_MS, transfer);
    const levels = [];
    for (const concurrency of LEVELS) {
      while ((await processorsBehind(db)) > 0) await sleep(50);
      const before = await cpuTicks(server.pid, db, databaseName);
      const { operations, perSecond, latenciesMs } = await runConcurrently(concurrency, DURATION_MS, transfer);
      const windowEnded = performance.now();
      while ((await processorsBehind(db)) > 0 && performance.now() - windowEnded < CATCH_UP_LIMIT_MS) await sleep(20);
      const catchUpMs = Math.round(performance.now() - windowEnded);
      const spent = cpuMsSince(before, await cpuTicks(server.pid, db, databaseName));
      const perTransfer: Record<string, number> = {};
      let total = 0;
      for (const [group, ms] of Object.entries(spent)) {
        perTransfer[group] = round(ms / operations, 2);
        total += ms;
      }
      const latency = summarise(latenciesMs);
      levels.push({
        concurrency,
        transfers: operations,
        perSecond,
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        processorsCatchUpMs: catchUpMs,
        cpuMsPerTransfer: { total: round(total / operations, 2), ...perTransfer },
      });
      process.stderr.write(`[transfer-cpu] ${JSON.stringify(levels[levels.length - 1])}\n`);
    }
    process.stdout.write(
      JSON.stringify({ webConcurrency: Number(WEB_CONCURRENCY), durationMs: DURATION_MS, levels }, null, 2) + '\n',
    );
  } finally {
    await db.end();
    await server.stop();
    await database.drop();
  }
}

await main();
