/**
 * The HTTP floor (issue 36's lever, ADR 0134): what the API process spends per request on Express and its middleware,
 * and what the same app booted on @nestjs/platform-fastify spends. A helper, not a scenario of `npm run bench`, and
 * an experiment that never ships: the Fastify variant is `fastify-preload.cjs` loaded into the built server.
 *
 * It starts this checkout's built server once per variant (`BENCH_HTTP_FLOOR_VARIANTS`, `express,fastify`), each on
 * its own fresh database with `BENCH_WEB_CONCURRENCY` API processes (2) and its worker, and runs alternating windows
 * of `BENCH_DURATION_MS` (8,000) at `BENCH_CLIENTS` (8) closed-loop clients, `BENCH_ROUNDS` (4) times, the order
 * swapped every round, of two loads: one-cent balance transfers (`POST /api/payments/transfer`) and the caller's own
 * profile (`GET /api/users/me`, a signed-in read). A window's CPU is counted as in `transfer-cpu.ts`: the server's Node
 * processes by role and the backends of its own database, until every processor has caught up.
 *
 * With `BENCH_CPU_PROFILE_DIR` set, one more window per variant and load runs under the inspector's sampling profiler
 * (`cpu-profile-preload.cjs`), and each API profile is attributed sample by sample to the nearest frame on its stack
 * that belongs to a package or to our code (so JSON.stringify called by Express's `res.json` is Express's, a socket
 * write called by pg is pg's); stacks with no such frame (Node's HTTP parser callbacks, the garbage collector) keep
 * their leaf's category. Shares of the profiled busy time are scaled to the unprofiled API CPU per request.
 *
 * `npm run build:proto && npm run build -w @kupa/api`, then
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/http-floor.ts`.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import pg from 'pg';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { cpuProfileServerEnv, withCpuProfile } from './cpu-profile.ts';
import { Api, type BenchUser, createUsers, deposit } from './http.ts';
import { cpuTicks, processorsBehind } from './party-cpu.ts';
import { round, runConcurrently, summarise } from './stats.ts';

const ADMIN = { email: 'floor-admin@kupa.test', password: 'Floor-Admin-Pass-1!' };
const VARIANTS = (process.env.BENCH_HTTP_FLOOR_VARIANTS ?? 'express,fastify').split(',');
const LOADS = (process.env.BENCH_HTTP_FLOOR_LOADS ?? 'transfer,me').split(',') as Load[];
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WEB_CONCURRENCY = process.env.BENCH_WEB_CONCURRENCY ?? '2';
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const FASTIFY_PRELOAD = join(import.meta.dirname, 'fastify-preload.cjs');
const WARM_UP_MS = 3000;
const CATCH_UP_LIMIT_MS = 60_000;
const TICKS_PER_SECOND = 100;

type Load = 'transfer' | 'me';

interface Party {
  variant: string;
  server: KupaServer;
  db: pg.Client;
  databaseName: string;
  senders: BenchUser[];
  profileIds: string[];
  failed: number;
}

interface Tally {
  requests: number;
  windows: number;
  discardedWindows: number;
  ratesPerSecond: number[];
  latenciesMs: number[];
  cpuMsByGroup: Record<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startParty(variant: string): Promise<Party> {
  const preload = variant === 'fastify' ? FASTIFY_PRELOAD : null;
  const profileEnv = cpuProfileServerEnv();
  const nodeOptions = [profileEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? '', preload ? `--require ${preload}` : '']
    .join(' ')
    .trim();
  const server = await startKupaServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
    WEB_CONCURRENCY,
    WORKER_PORT: '0',
    ...profileEnv,
    NODE_OPTIONS: nodeOptions,
  });
  if (!server.databaseUrl) throw new Error('The server runs on no named database');
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  const api = new Api(server.baseUrl);
  const admin = await api.signIn(ADMIN.email, ADMIN.password);
  const prefix = `floor-${randomUUID().slice(0, 8)}`;
  const senders = await createUsers(api, admin, CLIENTS, `${prefix}-s`, true);
  const recipients = await createUsers(api, admin, CLIENTS, `${prefix}-r`, false);
  const profileIds: string[] = [];
  for (const [index, sender] of senders.entries()) {
    await deposit(api, admin, sender.userUuid, 1000, 'http-floor float');
    profileIds.push(
      (await api.call<{ profileId: string }>('GET', `/users/${recipients[index].userUuid}`, admin)).profileId,
    );
  }
  return {
    variant,
    server,
    db,
    databaseName: new URL(server.databaseUrl).pathname.slice(1),
    senders,
    profileIds,
    failed: 0,
  };
}

function requestOf(party: Party, load: Load) {
  return async (worker: number) => {
    const token = party.senders[worker].token;
    const response =
      load === 'transfer'
        ? await fetch(`${party.server.baseUrl}/api/payments/transfer`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${token}`,
              'Idempotency-Key': randomUUID(),
            },
            body: JSON.stringify({ recipient: party.profileIds[worker], amount: 0.01 }),
          })
        : await fetch(`${party.server.baseUrl}/api/users/me`, { headers: { Authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status !== (load === 'transfer' ? 201 : 200)) {
      party.failed += 1;
      if (party.failed === 1)
        process.stderr.write(
          `${party.variant}: ${load} answered ${response.status}\n${party.server.output().slice(-3000)}\n`,
        );
    }
  };
}

async function measureWindow(party: Party, load: Load, tally: Tally): Promise<void> {
  while ((await processorsBehind(party.db)) > 0) await sleep(50);
  const failedBefore = party.failed;
  const before = await cpuTicks(party);
  const { operations, perSecond, latenciesMs } = await runConcurrently(CLIENTS, DURATION_MS, requestOf(party, load));
  const ended = performance.now();
  while ((await processorsBehind(party.db)) > 0 && performance.now() - ended < CATCH_UP_LIMIT_MS) await sleep(20);
  const after = await cpuTicks(party);
  if (party.failed > failedBefore) {
    tally.discardedWindows += 1;
    process.stderr.write(`[http-floor] ${party.variant} ${load}: left out, ${party.failed - failedBefore} failed\n`);
    return;
  }
  for (const [group, pids] of after) {
    let ticks = 0;
    for (const [pid, end] of pids) ticks += end - (before.get(group)?.get(pid) ?? 0);
    tally.cpuMsByGroup[group] = (tally.cpuMsByGroup[group] ?? 0) + (ticks * 1000) / TICKS_PER_SECOND;
  }
  tally.requests += operations;
  tally.windows += 1;
  tally.ratesPerSecond.push(perSecond);
  tally.latenciesMs.push(...latenciesMs);
  process.stderr.write(`[http-floor] ${party.variant} ${load}: ${operations} requests, ${perSecond}/s\n`);
}

// ---- Attribution of a profile's samples ----

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PACKAGE_GROUPS: Array<[string, readonly string[]]> = [
  [
    'Express (router, request/response, send)',
    [
      'express',
      'router',
      'finalhandler',
      'send',
      'serve-static',
      'on-finished',
      'type-is',
      'content-type',
      'mime-types',
      'mime-db',
      'accepts',
      'negotiator',
      'vary',
      'encodeurl',
      'escape-html',
      'etag',
      'fresh',
      'range-parser',
      'proxy-addr',
      'forwarded',
      'ipaddr.js',
      'parseurl',
      'qs',
      'depd',
      'statuses',
      'http-errors',
      'cookie-signature',
      'content-disposition',
      'merge-descriptors',
      'path-to-regexp',
      'is-promise',
      'once',
      'wrappy',
    ],
  ],
  ['body-parser (JSON body)', ['body-parser', 'raw-body', 'iconv-lite', 'bytes', 'unpipe', 'safer-buffer']],
  ['helmet', ['helmet']],
  ['cookie-parser', ['cookie-parser', 'cookie']],
  ['@nestjs/platform-express', ['@nestjs/platform-express']],
  [
    'Fastify (router, request/reply, hooks, body parser)',
    [
      'fastify',
      'find-my-way',
      'avvio',
      'fast-querystring',
      'secure-json-parse',
      'toad-cache',
      'fast-json-stringify',
      'light-my-request',
      'abstract-logging',
      'process-warning',
      'rfdc',
      'fast-decode-uri-component',
      'ret',
      'safe-regex2',
      'fastq',
      'reusify',
      'json-schema-ref-resolver',
      'fast-uri',
      '@fastify/error',
      '@fastify/ajv-compiler',
      '@fastify/fast-json-stringify-compiler',
      '@fastify/forwarded',
      '@fastify/proxy-addr',
      '@fastify/middie',
      '@fastify/formbody',
      '@fastify/cors',
      '@fastify/merge-json-schemas',
    ],
  ],
  ['@nestjs/platform-fastify', ['@nestjs/platform-fastify']],
  ['@nestjs/core and common', ['@nestjs/core', '@nestjs/common', '@nestjs/cqrs', '@nestjs/typeorm', '@nestjs/swagger']],
  ['rxjs', ['rxjs']],
  ['class-validator and class-transformer', ['class-validator', 'class-transformer', 'validator', 'libphonenumber-js']],
  [
    'passport and JWT',
    ['passport', 'passport-jwt', 'passport-strategy', 'jsonwebtoken', 'jws', 'jwa', '@nestjs/jwt', '@nestjs/passport'],
  ],
  ['pino, pino-http and prom-client', ['pino', 'pino-http', 'pino-std-serializers', 'sonic-boom', 'prom-client']],
  ['the pg driver', ['pg', 'pg-protocol', 'pg-pool', 'pg-types', 'pg-connection-string', 'postgres-array']],
  ['TypeORM', ['typeorm']],
];

function packageOf(url: string): string | null {
  const marker = url.lastIndexOf('node_modules/');
  if (marker < 0) return null;
  const [first, second] = url.slice(marker + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** The owner of a frame, or null for a frame that belongs to no package and none of our code (Node, V8, builtins). */
function ownerOf(url: string): string | null {
  const pkg = packageOf(url);
  if (pkg !== null) {
    if (pkg.startsWith('pg-')) return 'the pg driver';
    for (const [group, names] of PACKAGE_GROUPS) if (names.includes(pkg)) return group;
    if (pkg.startsWith('@kupa/')) return 'Kupa: handlers, domain, kernel';
    return 'other libraries';
  }
  if (url.includes('fastify-preload.cjs')) return 'the Fastify variant’s hooks (bench)';
  const dist = url.indexOf('/services/api/dist/');
  if (dist >= 0) {
    const path = url.slice(dist + '/services/api/dist/'.length);
    if (path.startsWith('platform/http/')) return 'Kupa: platform/http (input guards, rate limit, filter)';
    if (path.startsWith('platform/observability/')) return 'Kupa: platform/observability (request id, log, metrics)';
    if (path.startsWith('platform/auth/')) return 'Kupa: platform/auth (guards, decorators)';
    if (path.startsWith('platform/')) return 'Kupa: platform, other (database, idempotency, config)';
    return 'Kupa: handlers, domain, kernel';
  }
  if (url.includes('/proto/')) return 'Kupa: handlers, domain, kernel';
  return null;
}

const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writevGeneric']);

function leafCategory(frame: ProfileNode['callFrame']): string {
  const { functionName, url } = frame;
  if (functionName === '(garbage collector)') return 'runtime: garbage collection';
  if (functionName === '(program)') return 'runtime: V8 and native code outside JavaScript';
  if (SOCKET_WRITES.has(functionName)) return 'Node: socket writes';
  if (url.startsWith('node:_http') || functionName.startsWith('parserOn')) return 'Node: HTTP parser and server';
  if (url.startsWith('node:internal/process/task_queues') || functionName === 'runMicrotasks')
    return 'runtime: microtasks';
  if (url.startsWith('node:net') || url.includes('stream')) return 'Node: net and streams';
  if (url.startsWith('node:')) return 'Node: other internals';
  return 'runtime: builtins (JSON, crypto, regexp)';
}

/** Milliseconds of each owner in a set of profiles: busy time only (idle left out). */
function attribute(profiles: readonly CpuProfile[]): {
  busyMs: number;
  ms: Map<string, number>;
  functionMs: Map<string, Map<string, number>>;
} {
  const ms = new Map<string, number>();
  // Per owner, the leaf functions its time was spent in (a JSON.stringify under Express's res.json shows here).
  const functionMs = new Map<string, Map<string, number>>();
  let busyUs = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const ownerCache = new Map<number, string>();
    const ownerOfNode = (id: number): string => {
      const cached = ownerCache.get(id);
      if (cached !== undefined) return cached;
      let owner: string | null = null;
      for (let at: number | undefined = id; at !== undefined && owner === null; at = parent.get(at))
        owner = ownerOf(nodes.get(at)!.callFrame.url);
      const result = owner ?? leafCategory(nodes.get(id)!.callFrame);
      ownerCache.set(id, result);
      return result;
    };
    for (let index = 0; index < profile.samples.length; index += 1) {
      const us = Math.max(0, profile.timeDeltas[index + 1] ?? 0);
      const frame = nodes.get(profile.samples[index])!.callFrame;
      if (frame.functionName === '(idle)' || frame.functionName === '(root)') continue;
      busyUs += us;
      const owner = ownerOfNode(profile.samples[index]);
      ms.set(owner, (ms.get(owner) ?? 0) + us / 1000);
      if (!functionMs.has(owner)) functionMs.set(owner, new Map());
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.slice(frame.url.lastIndexOf('/') + 1)}`.trim();
      const byFunction = functionMs.get(owner)!;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us / 1000);
    }
  }
  return { busyMs: busyUs / 1000, ms, functionMs };
}

async function profileWindow(party: Party, load: Load): Promise<{ requests: number; profiles: CpuProfile[] }> {
  const label = `${party.variant}-${load}-${Date.now()}`;
  const { result } = await withCpuProfile(party.server.pid, label, () =>
    runConcurrently(CLIENTS, DURATION_MS, requestOf(party, load)),
  );
  const directory = join(PROFILE_DIR!, label);
  const profiles = readdirSync(directory)
    .filter((file) => file.startsWith('api-'))
    .map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile);
  return { requests: result.operations, profiles };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to a PostgreSQL server');
  const loadAtStart = loadavg().map((load) => round(load, 2));
  const parties: Party[] = [];
  try {
    for (const variant of VARIANTS) parties.push(await startParty(variant));
    for (const party of parties)
      for (const load of LOADS) await runConcurrently(CLIENTS, WARM_UP_MS, requestOf(party, load));
    // The answer's headers on each variant, so that a reader sees the Fastify variant kept what was measured.
    const answerHeaders: Record<string, string[]> = {};
    for (const party of parties) {
      const response = await fetch(`${party.server.baseUrl}/api/users/me`, {
        headers: { Authorization: `Bearer ${party.senders[0].token}` },
      });
      await response.arrayBuffer();
      answerHeaders[party.variant] = [...response.headers]
        .filter(([name]) => !['date', 'content-length', 'x-request-id', 'keep-alive'].includes(name))
        .map(([name, value]) => `${name}: ${value}`);
    }
    const tallies = new Map<string, Tally>();
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex += 1) {
      const order = roundIndex % 2 === 0 ? parties : [...parties].reverse();
      for (const load of LOADS)
        for (const party of order) {
          const key = `${party.variant}|${load}`;
          if (!tallies.has(key))
            tallies.set(key, {
              requests: 0,
              windows: 0,
              discardedWindows: 0,
              ratesPerSecond: [],
              latenciesMs: [],
              cpuMsByGroup: {},
            });
          await measureWindow(party, load, tallies.get(key)!);
        }
    }
    const results = [...tallies].map(([key, tally]) => {
      const [variant, load] = key.split('|');
      const latency = summarise(tally.latenciesMs);
      const perRequest: Record<string, number> = {};
      let total = 0;
      for (const [group, ms] of Object.entries(tally.cpuMsByGroup)) {
        perRequest[group] = round(ms / Math.max(1, tally.requests), 3);
        total += ms;
      }
      return {
        variant,
        load,
        windows: tally.windows,
        discardedWindows: tally.discardedWindows,
        requests: tally.requests,
        meanPerSecond: round(tally.ratesPerSecond.reduce((sum, rate) => sum + rate, 0) / Math.max(1, tally.windows), 1),
        p50Ms: latency.p50Ms,
        p99Ms: latency.p99Ms,
        cpuMsPerRequest: { total: round(total / Math.max(1, tally.requests), 3), ...perRequest } as Record<
          string,
          number
        >,
      };
    });
    const profiles: unknown[] = [];
    if (PROFILE_DIR) {
      for (const load of LOADS)
        for (const party of parties) {
          const { requests, profiles: apiProfiles } = await profileWindow(party, load);
          const { busyMs, ms, functionMs } = attribute(apiProfiles);
          const apiMsPerRequest =
            results.find((result) => result.variant === party.variant && result.load === load)?.cpuMsPerRequest[
              'server api'
            ] ?? 0;
          profiles.push({
            variant: party.variant,
            load,
            requests,
            profiledBusyMsPerRequest: round(busyMs / requests, 3),
            unprofiledApiMsPerRequest: apiMsPerRequest,
            // Each owner's share of the profiled busy time, and that share of the unprofiled API CPU per request.
            owners: [...ms]
              .sort((left, right) => right[1] - left[1])
              .map(([owner, ownerMs]) => ({
                owner,
                share: round(ownerMs / busyMs, 3),
                msPerRequest: round((ownerMs / busyMs) * apiMsPerRequest, 3),
                topFunctions:
                  ownerMs / busyMs < 0.02
                    ? undefined
                    : [...functionMs.get(owner)!]
                        .sort((left, right) => right[1] - left[1])
                        .slice(0, 6)
                        .map(([name, fnMs]) => `${name} ${round(fnMs / ownerMs, 2)}`),
              })),
          });
        }
    }
    process.stdout.write(
      JSON.stringify(
        {
          webConcurrency: Number(WEB_CONCURRENCY),
          clients: CLIENTS,
          durationMs: DURATION_MS,
          rounds: ROUNDS,
          loadAtStart,
          loadAtEnd: loadavg().map((load) => round(load, 2)),
          failed: Object.fromEntries(parties.map((party) => [party.variant, party.failed])),
          answerHeaders,
          results,
          profiles,
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
