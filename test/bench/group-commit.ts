/**
 * Group commit, measured before it is built (issue 36, docs/adr/0130-group-commit.md; docs/benchmarks.md, "Group
 * commit: what it would save"). A helper, not a scenario of `npm run bench`, and a prototype that lives only here.
 *
 * It runs the real balance transfer (`TransferBalanceHandler` through the `CommandBus`, with its idempotency key, its
 * reads before the transaction, the real stream locks, wallet loader, deciders, hash chain, inline projections and the
 * commit-numbering trigger of ADR 0061) inside this process, in an application context of the built API, on a
 * database a Kupa server seeded over HTTP and then left (the server is stopped, so no processor runs beside it). No
 * HTTP: what is measured is the command from the handler down, which is what grouping changes. Each window runs one
 * of these modes, closed-loop, each client transferring one cent within its own pair:
 *
 * - `single`: the pipeline as it is, one transaction per transfer;
 * - `tx`: the transfers that are waiting go into one transaction, each with its own statements as today (claim, load,
 *   decide, complete, append, projections) behind a `SAVEPOINT` of its own, so that a refusal rolls back only its
 *   own writes; the streams of the whole batch are locked in one statement;
 * - `merged`: the same batch with its statements merged: one lock, one claim of every idempotency key, one read of
 *   the wallet snapshots, every decision in memory (a refusal leaves the batch before anything of it is written), one
 *   insert of every event, one pass of each inline projection over all of them, one completion of every key.
 *
 * A batch forms either adaptively (`adaptive` in a case, the design of ADR 0130: a per-process queue; when fewer than
 * `BENCH_GROUP_IN_FLIGHT` batches are in their transactions the queue is flushed at once, up to `k` transfers, so a
 * lone transfer never waits) or at a fixed size (`fixed`: a batch waits until `k` transfers are queued, or 20 ms, to
 * read the cost of exactly k). A batch never holds two transfers that write the same stream, nor a stream of a batch
 * still in flight: the later one waits for the next batch (ADR 0130).
 *
 * CPU: this process's own (`process.cpuUsage`: the handler, pipeline, store, TypeORM and pg, plus the clients' loop,
 * which is a function call) and the PostgreSQL backends of this context's pool (`application_name`), read from
 * `/proc/<pid>/stat`, per transfer. Prints JSON.
 *
 * The prototype loads the API's build (`services/api/dist`), as `openBuiltApi` does, because Nest resolves
 * constructor parameters from decorator metadata that tsx does not emit; it reaches into the store's private methods
 * (`inTransaction`, `lockStreams`, `appendLocked`), which is why it is a bench and not code.
 *
 * `npm run build:proto && npm run build -w @kupa/api`, then
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/group-commit.ts`. Knobs:
 * `BENCH_GROUP_CASES` (mode:policy:k:clients, comma-separated), `BENCH_DURATION_MS` (5,000), `BENCH_ROUNDS` (2).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startKupaServer } from '../support/kupa-server.ts';
import { Api, createUsers, deposit } from './http.ts';
import { Session } from 'node:inspector/promises';
import { breakDown, type ProfileBreakdown } from './cpu-profile.ts';
import { type GroupMode, type GroupPolicy, type GroupSettings, installFromBuild } from './group-commit-prototype.ts';
import { readProcessTable, round, runConcurrently, summarise } from './stats.ts';

const ADMIN = { email: 'group-admin@kupa.test', password: 'Group-Admin-Pass-1!' };
const APPLICATION_NAME = 'kupa-group-bench';
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TICKS_PER_SECOND = 100;
/**
 * With `BENCH_GROUP_PROFILE=1` every timed window runs under the inspector's sampling profiler, and each case's Node
 * time is broken down by the categories of `cpu-profile.ts`: a run of its own, since the profiler costs CPU too.
 */
const PROFILE = process.env.BENCH_GROUP_PROFILE === '1';
/** Batches of the process in their transactions at once (`BENCH_GROUP_IN_FLIGHT`, 1; ADR 0130 proposes 2). */
const MAX_IN_FLIGHT = Number(process.env.BENCH_GROUP_IN_FLIGHT ?? 1);
/**
 * `BENCH_GROUP_HOT_RECIPIENT=1`: every client pays the first client's recipient, a hot stream. A batch holds one
 * transfer per stream, so this measures what the rule costs when every transfer shares one.
 */
const HOT_RECIPIENT = process.env.BENCH_GROUP_HOT_RECIPIENT === '1';
const DEFAULT_CASES = [
  'single:-:1:1',
  'merged:adaptive:16:1',
  'single:-:1:8',
  'tx:adaptive:16:8',
  'merged:adaptive:16:8',
  'single:-:1:16',
  'merged:adaptive:16:16',
  'single:-:1:4',
  'tx:fixed:4:4',
  'merged:fixed:4:4',
  'tx:fixed:8:8',
  'merged:fixed:8:8',
  'tx:fixed:16:16',
  'merged:fixed:16:16',
].join(',');
const CASES = (process.env.BENCH_GROUP_CASES ?? DEFAULT_CASES).split(',').map((spec) => {
  const [mode, policy, k, clients] = spec.split(':');
  if (!['single', 'tx', 'merged'].includes(mode)) throw new Error(`Unknown mode in ${spec}`);
  return { spec, mode, policy, k: Number(k), clients: Number(clients) } as Case;
});
const CLIENTS = Math.max(...CASES.map((entry) => entry.clients));

interface Case {
  spec: string;
  mode: GroupMode;
  policy: GroupPolicy;
  k: number;
  clients: number;
}

interface Built {
  commandBus: { execute(command: unknown): Promise<unknown> };
  TransferBalanceCommand: new (...args: unknown[]) => unknown;
  close(): Promise<void>;
}

async function openBuilt(databaseUrl: string, env: Record<string, string>, settings: GroupSettings): Promise<Built> {
  const apiRoot = join(import.meta.dirname, '..', '..', 'services', 'api');
  const load = createRequire(join(apiRoot, 'package.json'));
  load('reflect-metadata');
  const dist = (path: string) => load(join(apiRoot, 'dist', path)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the build's modules, typed at each use
  const { AppModule } = dist('app.module.js') as { AppModule: { register(options: unknown): never } };
  const { loadConfig } = dist('platform/config/index.js') as { loadConfig(env: unknown): Record<string, unknown> };
  const { NestFactory } = load('@nestjs/core') as {
    NestFactory: { createApplicationContext(module: never, options: unknown): Promise<NestContext> };
  };
  type NestContext = { get(token: unknown): never; close(): Promise<void> };
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', APPLICATION_NAME);
  const config = {
    ...loadConfig({ KUPA_SANDBOX: '1', ...process.env, ...env, DATABASE_URL: url.toString() }),
    demoData: false,
    adminEmail: null,
    adminPassword: null,
  };
  const context = await NestFactory.createApplicationContext(
    AppModule.register({ config, databaseUrl: url.toString(), version: '0.0.0-bench', quiet: true }),
    { logger: ['error'] },
  );
  const { CommandBus } = load('@nestjs/cqrs') as { CommandBus: unknown };
  installFromBuild(dist, settings);
  return {
    commandBus: context.get(CommandBus),
    TransferBalanceCommand: dist('contexts/ledger/commands/transfer-balance/transfer-balance.command.js')
      .TransferBalanceCommand,
    close: () => context.close(),
  };
}

async function backendTicks(monitor: pg.Client, databaseName: string): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
    [databaseName, APPLICATION_NAME],
  );
  const table = readProcessTable();
  return new Map(rows.flatMap(({ pid }) => (table.has(pid) ? [[pid, table.get(pid)!.cpuTicks] as const] : [])));
}

/** A profile's categories and top functions as Node CPU ms per transfer (the shares of the process's CPU time). */
function perTransfer(breakdown: ProfileBreakdown, tally: { nodeMs: number; transfers: number }) {
  const ms = (share: number) => round((share * tally.nodeMs) / tally.transfers, 3);
  return {
    categoriesMs: Object.fromEntries(breakdown.categories.map(({ category, share }) => [category, ms(share)])),
    topFunctionsMs: breakdown.topFunctions
      .slice(0, 12)
      .map((entry) => ({ function: entry.function, ms: ms(entry.share) })),
  };
}

/** `kupa ledger verify` over everything the run wrote: hash chains, a replay of every read model. */
function ledgerVerify(databaseUrl: string, dataDir: string): Promise<unknown> {
  const entry = join(import.meta.dirname, '..', '..', 'services', 'api', 'bin', 'kupa.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, 'ledger', 'verify', '--json'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, KUPA_DATA_DIR: dataDir, KUPA_SANDBOX: '1', LOG_LEVEL: 'error' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const json = JSON.parse(stdout.trim().split('\n').pop() ?? 'null') as {
        ok: boolean;
        counts: unknown;
        differenceCount: number;
        differences: unknown[];
      } | null;
      resolve({
        exitCode: code,
        ok: json?.ok,
        counts: json?.counts,
        differences: json?.differenceCount,
        firstDifferences: json?.differences.slice(0, 3),
      });
    });
  });
}

/**
 * `--preload`: bundles `group-commit-preload.ts` with the prototype into one CommonJS file for a server's
 * `NODE_OPTIONS=--require <file>` and prints its path (esbuild, which tsx brings).
 */
async function writePreload(): Promise<void> {
  const { build } = await import('esbuild');
  const outfile = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'kupa-bench-group', 'preload.cjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'group-commit-preload.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
  });
  process.stdout.write(`${outfile}\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--preload')) return writePreload();
  if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to a PostgreSQL server');
  const loadAtStart = loadavg().map((load) => round(load, 2));
  // Seeding over HTTP, as every bench does; the server is then stopped and its database kept for this process.
  const server = await startKupaServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
    WEB_CONCURRENCY: '1',
    WORKER_PORT: '0',
  });
  let built: Built | null = null;
  const monitor = new pg.Client({ connectionString: server.databaseUrl ?? '' });
  try {
    if (!server.databaseUrl) throw new Error('The server runs on no named database');
    const api = new Api(server.baseUrl);
    const admin = await api.signIn(ADMIN.email, ADMIN.password);
    const prefix = `grp-${randomUUID().slice(0, 8)}`;
    const senders = await createUsers(api, admin, CLIENTS, `${prefix}-s`, false);
    const recipients = await createUsers(api, admin, CLIENTS, `${prefix}-r`, false);
    const profileIds: string[] = [];
    for (const [index, sender] of senders.entries()) {
      await deposit(api, admin, sender.userUuid, 1000, 'group-commit float');
      profileIds.push(
        (await api.call<{ profileId: string }>('GET', `/users/${recipients[index].userUuid}`, admin)).profileId,
      );
    }
    await server.stop({ keepData: true });
    const databaseName = new URL(server.databaseUrl).pathname.slice(1);
    const group: GroupSettings = {
      mode: 'single',
      policy: '-',
      k: 1,
      maxInFlight: MAX_IN_FLIGHT,
      batchSizes: [],
      fallbacks: 0,
      statements: [],
    };
    built = await openBuilt(server.databaseUrl, { KUPA_DATA_DIR: server.dataDir, PUBLIC_URL: server.baseUrl }, group);
    await monitor.connect();
    const failures: Record<string, number> = {};
    // Outcomes, for the checks after the run: every first answer is a TRANSFER_OUT row, every repeat the same payment.
    const outcome = { committed: 0, refused: 0, repeats: 0, repeatMismatches: 0 };
    const lastOf = new Map<number, { key: string; paymentId: unknown }>();
    let mixing = false;
    const transfer = (spec: string) => async (worker: number, iteration: number) => {
      const sender = senders[worker];
      const actor = { userUuid: sender.userUuid, email: sender.email, role: 'CLIENT', name: 'Bench User' };
      const context = { actor, ip: '127.0.0.1', correlationId: randomUUID() };
      // In the mixed phase, every fifth transfer repeats the previous one's key and every fifth asks for more than the
      // balance: a batch then holds refusals and repeats beside transfers that must commit.
      const last = lastOf.get(worker);
      const repeat = mixing && iteration % 5 === 2 && last !== undefined;
      const refuse = mixing && iteration % 5 === 4;
      const key = repeat ? last.key : randomUUID();
      try {
        const payment = (await built!.commandBus.execute(
          new built!.TransferBalanceCommand(
            actor,
            profileIds[HOT_RECIPIENT ? 0 : worker],
            refuse ? 100_000_000 : 1,
            key,
            context,
            undefined,
          ),
        )) as { paymentId: unknown };
        if (repeat) {
          outcome.repeats += 1;
          if (payment.paymentId !== last.paymentId) outcome.repeatMismatches += 1;
        } else {
          outcome.committed += 1;
          lastOf.set(worker, { key, paymentId: payment.paymentId });
        }
      } catch (error) {
        if (refuse && (error as { code?: string }).code === 'error.insufficient.balance') {
          outcome.refused += 1;
          return;
        }
        failures[spec] = (failures[spec] ?? 0) + 1;
        if (failures[spec] === 1) process.stderr.write(`[group-commit] ${spec}: ${String(error)}\n`);
      }
    };
    const inspector = PROFILE ? new Session() : null;
    const profiles = new Map<string, Parameters<typeof breakDown>[0][number][]>();
    if (inspector) {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    // Warm-up of every path, untimed.
    for (const entry of CASES) {
      Object.assign(group, { mode: entry.mode, policy: entry.policy, k: entry.k });
      await runConcurrently(entry.clients, 500, transfer(`warm-up ${entry.spec}`));
    }
    const tallies = new Map<
      string,
      {
        transfers: number;
        seconds: number;
        nodeMs: number;
        pgMs: number;
        lat: number[];
        batches: number[];
        statements: number[];
      }
    >();
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex += 1) {
      const order = roundIndex % 2 === 0 ? CASES : [...CASES].reverse();
      for (const entry of order) {
        Object.assign(group, { mode: entry.mode, policy: entry.policy, k: entry.k });
        const batchesBefore = group.batchSizes.length;
        const statementsBefore = group.statements!.length;
        const pgBefore = await backendTicks(monitor, databaseName);
        const nodeBefore = process.cpuUsage();
        if (inspector) await inspector.post('Profiler.start');
        const { operations, latenciesMs } = await runConcurrently(entry.clients, DURATION_MS, transfer(entry.spec));
        const node = process.cpuUsage(nodeBefore);
        if (inspector) {
          const { profile } = await inspector.post('Profiler.stop');
          profiles.set(entry.spec, [...(profiles.get(entry.spec) ?? []), profile as never]);
        }
        const pgAfter = await backendTicks(monitor, databaseName);
        let pgTicks = 0;
        for (const [pid, ticks] of pgAfter) pgTicks += ticks - (pgBefore.get(pid) ?? 0);
        const tally = tallies.get(entry.spec) ?? {
          transfers: 0,
          seconds: 0,
          nodeMs: 0,
          pgMs: 0,
          lat: [],
          batches: [],
          statements: [],
        };
        tally.transfers += operations;
        tally.seconds += DURATION_MS / 1000;
        tally.nodeMs += (node.user + node.system) / 1000;
        tally.pgMs += (pgTicks * 1000) / TICKS_PER_SECOND;
        tally.lat.push(...latenciesMs);
        tally.batches.push(...group.batchSizes.slice(batchesBefore));
        tally.statements.push(...group.statements!.slice(statementsBefore));
        tallies.set(entry.spec, tally);
        process.stderr.write(`[group-commit] ${entry.spec}: ${operations} transfers\n`);
      }
    }
    // Correctness, untimed: each grouped mode with refusals and repeats in its batches.
    mixing = true;
    for (const mode of ['tx', 'merged'] as const) {
      Object.assign(group, { mode, policy: 'adaptive', k: 16 });
      await runConcurrently(CLIENTS, 2000, transfer(`mixed ${mode}`));
    }
    mixing = false;
    const results = CASES.map((entry) => {
      const tally = tallies.get(entry.spec)!;
      const latency = summarise(tally.lat);
      const batches = tally.batches;
      return {
        case: entry.spec,
        mode: entry.mode,
        policy: entry.policy,
        k: entry.k,
        clients: entry.clients,
        transfers: tally.transfers,
        perSecond: round(tally.transfers / tally.seconds, 1),
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        // From START TRANSACTION to COMMIT, both counted, per transfer; today's single path sends 10 (ADR 0126). The
        // count begins after the START, and the COMMIT is in it.
        statementsPerTransfer:
          tally.statements.length === 0
            ? null
            : round(
                tally.statements.reduce((sum, count) => sum + count + 1, 0) /
                  tally.batches.reduce((sum, size) => sum + size, 0),
                2,
              ),
        meanBatch: batches.length === 0 ? 1 : round(batches.reduce((sum, size) => sum + size, 0) / batches.length, 2),
        cpuMsPerTransfer: {
          total: round((tally.nodeMs + tally.pgMs) / tally.transfers, 3),
          node: round(tally.nodeMs / tally.transfers, 3),
          postgres: round(tally.pgMs / tally.transfers, 3),
        },
        ...(profiles.has(entry.spec) ? { nodeProfile: perTransfer(breakDown(profiles.get(entry.spec)!), tally) } : {}),
      };
    });
    const check = await monitor.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM event_commits) AS commits,
              (SELECT count(*)::int FROM payments WHERE type = 'TRANSFER_OUT') AS "transferOutRows",
              (SELECT coalesce(sum(balance_minor), 0)::bigint::text FROM account_balances) AS "balanceSumMinor",
              (SELECT count(*)::int FROM wallet_snapshots WHERE (state->>'balanceMinor')::bigint < 0) AS negative,
              (SELECT count(*)::int FROM idempotency_keys) AS keys,
              (SELECT count(*)::int FROM idempotency_keys WHERE response IS NULL) AS pending`,
    );
    await built.close();
    built = null;
    const verify = await ledgerVerify(server.databaseUrl, server.dataDir);
    process.stdout.write(
      JSON.stringify(
        {
          durationMs: DURATION_MS,
          rounds: ROUNDS,
          loadAtStart,
          loadAtEnd: loadavg().map((load) => round(load, 2)),
          maxInFlight: MAX_IN_FLIGHT,
          hotRecipient: HOT_RECIPIENT,
          fallbacks: group.fallbacks,
          failures,
          outcome,
          check: { ...check.rows[0], depositedMinor: CLIENTS * 100_000 },
          verify,
          results,
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    await built?.close();
    await monitor.end().catch(() => undefined);
    await server.stop();
  }
}

await main();
