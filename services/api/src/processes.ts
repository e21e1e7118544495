import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import cluster, { type Worker } from 'node:cluster';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './contexts/identity';
import { createApp, createLogger } from './create-app';
import { seedDemoHistory } from './demo-start';
import { type AppConfig, type ProcessRole, warnOfSandboxes } from './platform/config';
import { type EmbeddedSupervision, openDatabase } from './platform/database/embedded-database';
import {
  chooseLogFormat,
  markProcessNotLive,
  Metrics,
  ProcessorLagWatch,
  startWorkerObservability,
} from './platform/observability';
import { backoffDelayMs } from './platform/jobs';
import { BackgroundWork } from './platform/workers';
import { demoLoginsLine, demoLoginsShown, startBanner } from './start-banner';
import { readVersion } from './version';

/**
 * The processes Kupa runs as (docs/adr/0036-processes-and-roles.md): `KUPA_ROLE=all` serves HTTP and runs the
 * background work in one process (`npm start`), `api` serves HTTP only, `worker` runs the background work only
 * (`worker.ts`, `npm run worker`). With `WEB_CONCURRENCY` above 1 a primary forks that many API processes sharing
 * the port, and one worker process when the role is `all`, and forks again whichever of them dies.
 */

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Sets up the JSON logger before anything logs (the embedded database starts before any application exists). */
function startLogging(config: AppConfig, context: string): Logger {
  Logger.overrideLogger(createLogger({ config }));
  return new Logger(context);
}

/** How long a process that gave itself up may take to close before it exits anyway. */
const FAILED_CLOSE_MS = 15_000;

/**
 * Runs `close` once on the first of SIGINT, SIGTERM or SIGHUP, then exits 0. Answers the same shutdown for a process
 * that cannot go on (its embedded database gone for good): it closes too, then exits non-zero for its supervisor.
 */
function onShutdownSignal(logger: Logger, what: string, close: () => Promise<void>): (reason: string) => void {
  let closing = false;
  const shutdown = async (cause: string, exitCode: number) => {
    if (closing) return;
    closing = true;
    if (exitCode === 0) logger.log(`${cause} received, ${what}`);
    else {
      logger.error(`${cause}: ${what}, then exiting with code ${exitCode}`);
      // Kept referenced: the loop must not run dry (and the process exit 0) before the exit below.
      setTimeout(() => process.exit(exitCode), FAILED_CLOSE_MS);
    }
    const closed = await close().then(
      () => true,
      (error: unknown) => {
        logger.error(`Closing failed: ${String(error)}`);
        return false;
      },
    );
    process.exit(closed ? exitCode : 1);
  };
  // `on`, not `once`: Ctrl+C under `npm start` signals this process twice (the terminal's process group, then
  // scripts/start.mjs forwarding it), and a second signal with no listener left would kill it mid-close.
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, () => void shutdown(signal, 0));
  return (reason) => void shutdown(reason, 1);
}

/**
 * The embedded database's supervision for a long-running process (ADR 0064): restarts and waits are logged as JSON
 * warnings and errors; giving up fails liveness and then `fail`, which closes and exits non-zero. Until `fail` is set
 * (the database may give up while the application is still being built) giving up exits at once.
 */
function embeddedSupervision(): {
  supervision: EmbeddedSupervision;
  onFailure: (fail: (reason: string) => void) => void;
} {
  const logger = new Logger('EmbeddedDatabase');
  let fail = (reason: string): void => {
    logger.error(`${reason}: exiting with code 1`);
    process.exit(1);
  };
  return {
    supervision: {
      warn: (message) => logger.warn(message),
      error: (message) => logger.error(message),
      onGiveUp: (reason) => {
        markProcessNotLive(reason);
        fail(reason);
      },
    },
    onFailure: (next) => (fail = next),
  };
}

/**
 * An API process (`api`), or the one-process start (`all`), which runs the background work beside the requests:
 * opens the database (embedded unless DATABASE_URL is set), runs migrations, serves /api, /admin and /, and on
 * SIGINT, SIGTERM or SIGHUP closes the server, then stops an embedded PostgreSQL it started, then exits 0.
 */
export async function runServer(config: AppConfig, role: Exclude<ProcessRole, 'worker'>): Promise<void> {
  const logger = startLogging(config, 'Kupa');
  // PostgreSQL's own log lines are only interesting when debugging.
  const showDatabaseLog = config.logLevel === 'debug' || config.logLevel === 'verbose';
  const { supervision, onFailure } = embeddedSupervision();
  const database = await openDatabase(config, {
    log: showDatabaseLog ? (line) => logger.debug(line) : undefined,
    supervise: supervision,
  });
  if (database.embedded) logger.log(`Embedded PostgreSQL ready (data in ${config.dataDir})`);
  // Before the server's own clock writes anything: the demo's history is dated in the months before this start. In a
  // WEB_CONCURRENCY start the first API process runs alone until it listens, so only it finds an empty database.
  // The seed's own app logs errors only: its start-up lines and sandbox warnings would repeat the server's.
  const seedLogger = createLogger({ config: { ...config, logLevel: 'error' } });
  const seeded = await seedDemoHistory({
    config,
    databaseUrl: database.url,
    version: readVersion(),
    logger: seedLogger,
  });
  const app = await createApp({
    config,
    databaseUrl: database.url,
    version: readVersion(),
    serveUi: true,
    logger: createLogger({ config }),
  });
  // Logged once the server's app exists: until then Nest's loggers write at the seed app's level.
  if (seeded) logger.log('Demo catalogue and four months of its history seeded');
  onFailure(
    onShutdownSignal(logger, 'shutting down', async () => {
      await app.close();
      await database.stop();
    }),
  );
  await app.listen(config.port);
  // Each processor leads in one process at a time under its advisory lock, whichever processes run the work.
  if (role === 'all') app.get(BackgroundWork).start();
  // Every process warns of processors behind, so that the log says so even when every worker is gone.
  app.get(ProcessorLagWatch).start();
  const up =
    role === 'all'
      ? `Kupa is up: ${config.publicUrl}/ (client), ${config.publicUrl}/admin (staff), ${config.publicUrl}/api/docs (API)`
      : `Kupa API process is up on port ${config.port}: ${config.publicUrl}/api/docs`;
  // A forked API process of a WEB_CONCURRENCY start only logs; its primary shows the banner once for all of them.
  if (cluster.isWorker) logger.log(up);
  else announceUp(config, logger, role === 'all' ? 'Kupa is up' : 'Kupa is up (API only)', up);
}

/**
 * Says the server is up: on a terminal (pretty logs) as a plain banner with the URLs and, on the embedded demo, the
 * demo logins; in JSON logs as log lines a machine reads (docs/adr/0074-readable-first-run.md).
 */
function announceUp(config: AppConfig, logger: Logger, headline: string, logLine: string): void {
  const demo = {
    demoLogins: DEMO_ACCOUNTS.map(({ role, email }) => ({ role, email })),
    demoPassword: DEMO_PASSWORD,
  };
  if (chooseLogFormat(config.logFormat, process.stdout.isTTY === true) === 'pretty') {
    process.stdout.write(startBanner(config, { headline, ...demo }));
    return;
  }
  logger.log(logLine);
  if (demoLoginsShown(config)) logger.log(demoLoginsLine(demo));
}

/**
 * A worker: the processors, sweeps, mail dispatcher and provisioning jobs, without the API; its health and metrics
 * are on `WORKER_PORT` (docs/adr/0063). On the embedded database it attaches to the running PostgreSQL, or starts it
 * when none runs. SIGINT, SIGTERM or SIGHUP finish the batch in hand, then exit 0.
 */
export async function runWorker(config: AppConfig): Promise<void> {
  const logger = startLogging(config, 'KupaWorker');
  const workerLogger = createLogger({ config });
  // No HTTP here, so `configureApp` never runs: the worker says itself which sandboxes its jobs write into.
  warnOfSandboxes(config, workerLogger);
  const { supervision, onFailure } = embeddedSupervision();
  const database = await openDatabase(config, { supervise: supervision });
  const context = await NestFactory.createApplicationContext(
    AppModule.register({ config, databaseUrl: database.url, version: readVersion() }),
    { logger: workerLogger },
  );
  const work = context.get(BackgroundWork);
  const observability = await startWorkerObservability({
    port: config.workerPort,
    config,
    metrics: context.get(Metrics),
    dataSource: context.get(DataSource),
    working: () => work.running,
  });
  onFailure(
    onShutdownSignal(logger, 'finishing the work in hand', async () => {
      await observability.close();
      await context.close();
      await database.stop();
    }),
  );
  work.start();
  context.get(ProcessorLagWatch).start();
  logger.log(
    `Kupa worker is running the processors and the mail dispatcher; health and metrics on port ${observability.port}`,
  );
}

/** A child that dies within this long of its start counts as a crash loop: the next fork waits longer. */
const STABLE_AFTER_MS = 10_000;
/** The wait before forking again after quick exits in a row: the capped doubling of background work. */
const REFORK_BACKOFF = { baseMs: 500, maxMs: 30_000 };
/** How long the primary waits for its children to finish their work in hand before it kills them. */
const CHILDREN_SHUTDOWN_MS = 30_000;

interface Child {
  role: 'api' | 'worker';
  index: number;
  startedAt: number;
  quickExits: number;
}

/**
 * The `WEB_CONCURRENCY` primary: owns the database handle (starts the embedded PostgreSQL, which the children attach
 * to), forks one API process first and waits until it listens (so that migrations and the start-up accounts are
 * written by one process), then the other API processes and, for `all`, one worker. Node's cluster hands the
 * listening port to every API child. A child that dies is forked again, after a pause that grows while it keeps
 * dying young. SIGINT, SIGTERM or SIGHUP stop every child (each finishes its work in hand), then the database.
 */
export async function runCluster(config: AppConfig): Promise<void> {
  const logger = startLogging(config, 'KupaPrimary');
  const { supervision, onFailure } = embeddedSupervision();
  const database = await openDatabase(config, { supervise: supervision });
  if (database.embedded) logger.log(`Embedded PostgreSQL ready (data in ${config.dataDir})`);
  const children = new Map<Worker, Child>();
  let closing = false;

  const fork = (child: Omit<Child, 'startedAt'>): Worker => {
    const worker = cluster.fork({ KUPA_ROLE: child.role, KUPA_PROCESS_INDEX: String(child.index) });
    children.set(worker, { ...child, startedAt: Date.now() });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const child = children.get(worker);
    children.delete(worker);
    if (closing || !child) return;
    const young = Date.now() - child.startedAt < STABLE_AFTER_MS;
    const quickExits = young ? child.quickExits + 1 : 0;
    // The first fork after a stable run waits the base; each quick exit in a row doubles it.
    const delayMs = backoffDelayMs(REFORK_BACKOFF, quickExits + 1);
    logger.error(
      `The ${child.role} process ${worker.process.pid} ended (${signal ?? `code ${code}`}); forking another in ${delayMs} ms`,
    );
    setTimeout(() => {
      if (!closing) fork({ role: child.role, index: child.index, quickExits });
    }, delayMs).unref();
  });

  const shutdown = onShutdownSignal(logger, 'stopping the processes', async () => {
    closing = true;
    const exits = [...children.keys()].map(
      (worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const worker of children.keys()) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const worker of children.keys()) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, CHILDREN_SHUTDOWN_MS);
    await Promise.all(exits);
    clearTimeout(timer);
    await database.stop();
  });
  onFailure(shutdown);

  // The first API process runs the migrations alone; the others start once it listens.
  await listening(fork({ role: 'api', index: 0, quickExits: 0 }));
  const others: Worker[] = [];
  for (let index = 1; index < config.webConcurrency; index += 1)
    others.push(fork({ role: 'api', index, quickExits: 0 }));
  if (config.role === 'all') fork({ role: 'worker', index: 0, quickExits: 0 });
  await Promise.all(others.map(listening));
  const headline = `Kupa is up with ${config.webConcurrency} API processes${config.role === 'all' ? ' and a worker' : ''}`;
  announceUp(
    config,
    logger,
    headline,
    `${headline}: ${config.publicUrl}/ (client), ${config.publicUrl}/admin (staff), ${config.publicUrl}/api/docs (API)`,
  );
}

/** Resolves when a forked API process listens; rejects if it ends first. */
function listening(worker: Worker): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ended = (code: number | null) =>
      reject(new Error(`An API process ended during its start (code ${code ?? 'none'})`));
    worker.once('exit', ended);
    worker.once('listening', () => {
      worker.off('exit', ended);
      resolve();
    });
  });
}

/** What this process runs: a cluster primary, an API or one-process server, or a worker. */
export async function runProcess(config: AppConfig): Promise<void> {
  if (cluster.isPrimary && config.webConcurrency > 1 && config.role !== 'worker') return runCluster(config);
  if (config.role === 'worker') return runWorker(config);
  return runServer(config, config.role);
}
