import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AuditLogCatchUp } from '../contexts/audit';
import { createApp } from '../create-app';
import { ManualClock } from '../platform/clock';
import { BackgroundLoops, BackgroundWork } from '../platform/workers';
import { type AppConfig, loadConfig } from '../platform/config';
import { JsonLogger } from '../platform/observability';
import { Mailbox } from './mailbox';
import { cachedOpenApiDocument } from './openapi-cache';
import { contractCheckedHttp } from './openapi-recorder';
import { createMigratedTestDatabase, type TestDatabase } from './test-database';

/** The version every spec app states (in its OpenAPI document among others). */
export const TEST_APP_VERSION = '0.0.0-test';

/** How many of the quiet apps' last warnings and errors this process keeps (`recentAppWarnings`). */
const RECENT_WARNINGS_KEPT = 100;
const recentWarnings: string[] = [];

/**
 * The last warnings and errors of the apps this spec process started quietly, oldest first: what a spec that timed out
 * prints to say why (a refused database connection, a failing send), since a quiet app writes nothing.
 */
export function recentAppWarnings(): string[] {
  return [...recentWarnings];
}

const rememberWarning = (line: string): void => {
  recentWarnings.push(line.trim());
  if (recentWarnings.length > RECENT_WARNINGS_KEPT) recentWarnings.shift();
};

/** How long an app's start may take before the spec's output says what it waits for; a start takes about a second. */
const SLOW_START_MS = 20_000;

/** argon2id's cheapest sensible setting: 1 MiB, 1 pass, 1 lane. */
export const SPEC_PASSWORD_HASH_COST = { memoryKib: 1024, passes: 1, lanes: 1 } as const;

export interface TestApp {
  app: INestApplication & NestExpressApplication;
  /** supertest with every exchange checked against the OpenAPI document (`openapi-recorder.ts`). */
  http: ReturnType<typeof request>;
  /** supertest without the check, for calls the document rightly does not describe (unknown routes, raw bytes). */
  rawHttp: ReturnType<typeof request>;
  database: TestDatabase;
  dataSource: DataSource;
  mailbox: Mailbox;
  clock: ManualClock | null;
  config: AppConfig;
  /** Every JSON log line the app wrote, with `captureLogs`; otherwise empty (the app logs nothing). */
  logLines: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** A hand-moved clock; by default the system clock. */
  clock?: ManualClock;
  env?: Record<string, string>;
  /**
   * Run the processors and the mail dispatcher, as the server does (default). A spec that drives them itself
   * (several runners, restarts) turns this off.
   */
  backgroundWork?: boolean;
  /**
   * Background loops of contexts to leave stopped though the rest runs: `['provisioning-jobs']` keeps subscriptions
   * PENDING until a spec activates them itself, while mails still flow.
   */
  stoppedLoops?: string[];
  /** The SMTP server mails go to; by default a fresh in-process one. */
  mailbox?: Mailbox;
  /** Serve these built UI folders beside the API, as `npm start` does; by default no UI is served. */
  ui?: { adminUiDir: string; clientUiDir: string };
  /**
   * Keep the app's log lines in `logLines` instead of silencing them, at `LOG_LEVEL` (`env: { LOG_LEVEL: 'verbose' }`
   * for every line). Nest's loggers are process-wide: a spec that captures starts no other app beside it.
   */
  captureLogs?: boolean;
  /** Run on this database (a restored backup) instead of a fresh one; it is dropped on close all the same. */
  database?: TestDatabase;
  /** Runs on the database and the config before the app is built, as the server's start does with the demo seed. */
  beforeStart?: (start: { config: AppConfig; databaseUrl: string }) => Promise<unknown>;
}

/**
 * The whole API on a fresh database and a real in-process SMTP server: what API specs drive with supertest.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createMigratedTestDatabase());
  const mailbox = options.mailbox ?? (await Mailbox.start());
  const config = loadConfig({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    TWO_FACTOR_KEY: 'test-two-factor-key',
    PROVISIONING_TOKEN: 'test-provisioning-token',
    // The simulator's fault routes exist, so that the route matrix and the OpenAPI checks see them answer.
    PROVISIONING_SIMULATOR_FAULTS: '1',
    SMTP_URL: mailbox.url,
    PUBLIC_URL: 'http://kupa.test',
    DEMO_DATA: '0',
    LOG_LEVEL: 'error',
    KUPA_DATA_DIR: '/tmp/kupa-test-data-unused',
    // Mails and other processor effects follow a request within a few tens of milliseconds.
    WORKER_POLL_INTERVAL_MS: '20',
    MAIL_RETRY_BASE_MS: '50',
    MAIL_RETRY_MAX_MS: '400',
    // Fixtures sign many users up from one address; the sign-up limit has its own spec with its own setting.
    RATE_LIMIT_SIGNUPS_PER_ADDRESS: '100000/1h',
    // supertest connects from the loopback address, as a proxy on the same host would: specs name the client in
    // X-Forwarded-For. A spec of the default (trust no proxy) passes TRUST_PROXY: ''.
    TRUST_PROXY: 'loopback',
    // Lets a run of the suites go without group commit (on by default, docs/adr/0138): `COMMAND_GROUPING=0 npx jest …`.
    ...(process.env.COMMAND_GROUPING === undefined ? {} : { COMMAND_GROUPING: process.env.COMMAND_GROUPING }),
    ...options.env,
  });
  if (options.ui) Object.assign(config, options.ui);
  // Still argon2id, at a cost the specs can afford: a few hundred sign-ups and sign-ins per run at the production
  // cost took minutes of CPU (docs/benchmarks.md). The production cost has its own spec (password-hasher.spec.ts).
  config.passwordHashCost = SPEC_PASSWORD_HASH_COST;
  // The processors and the job queues answer this app's own commits at once and otherwise look seldom: nine loops
  // looking every 20 ms kept about a quarter of a core busy, in Node and PostgreSQL, while a spec waited
  // (docs/adr/0108-woken-background-loops-in-specs.md). 500 ms is production's own pace; the sweeps keep 20 ms.
  config.workerWokenPollIntervalMs = 500;
  await options.beforeStart?.({ config, databaseUrl: database.url });
  const logLines: string[] = [];
  // A start that hangs (TypeORM retrying a refused first connection) says why before Jest's hook limit ends the spec.
  const slowStart = setTimeout(() => {
    process.stderr.write(
      `startTestApp has waited ${SLOW_START_MS} ms for the app to start; its last warnings:\n` +
        `${recentAppWarnings().slice(-20).join('\n') || '(none)'}\n`,
    );
  }, SLOW_START_MS);
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp({
      config,
      databaseUrl: database.url,
      version: TEST_APP_VERSION,
      clock: options.clock,
      logger: options.captureLogs
        ? JsonLogger.create({ level: config.logLevel, destination: { write: (line) => void logLines.push(line) } })
        : JsonLogger.create({ level: 'warn', destination: { write: rememberWarning } }),
      serveUi: options.ui !== undefined,
      openApiDocument: cachedOpenApiDocument(TEST_APP_VERSION),
    });
    await app.init();
  } finally {
    clearTimeout(slowStart);
  }
  // Listening, as the server does: the built-in streaming-service simulator is reached over this process's own
  // origin, so provisioning (a background loop) needs a port that outlives any one supertest request.
  await app.listen(0, '127.0.0.1');
  if (options.backgroundWork !== false) {
    app.get(BackgroundWork).start();
    const stopped = options.stoppedLoops ?? [];
    const loops = app.get(BackgroundLoops).all();
    for (const name of stopped) {
      const loop = loops.find((candidate) => candidate.name === name);
      if (!loop) throw new Error(`No background loop named ${name}`);
      await loop.stop();
    }
  }
  const dataSource = app.get(DataSource);
  const { http, raw } = await contractCheckedHttp(app);
  return {
    app,
    http,
    rawHttp: raw,
    database,
    dataSource,
    mailbox,
    clock: options.clock ?? null,
    config,
    logLines,
    close: async () => {
      await app.close();
      await mailbox.stop();
      await database.drop();
    },
  };
}

/**
 * Waits until the activity log's processor has passed every event committed so far: specs that read `audit_logs`
 * straight from the database after a command (docs/adr/0126). The log's own queries wait by themselves.
 */
export async function activityLogCaughtUp(testApp: Pick<TestApp, 'app'>): Promise<void> {
  if (!(await testApp.app.get(AuditLogCatchUp).wait(30_000))) {
    throw new Error('The activity log processor did not pass the events committed before the wait in 30 s');
  }
}
