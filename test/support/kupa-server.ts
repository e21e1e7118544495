import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The built Kupa process, started the way `npm start` starts it, on a throw-away data directory. */
export interface KupaServer {
  baseUrl: string;
  /** The server's process id (the benchmark reads its memory from /proc). */
  pid: number;
  /** Its KUPA_DATA_DIR: the embedded database and secrets live here. */
  dataDir: string;
  /** The database it uses when DATABASE_URL was set; null on the embedded default. */
  databaseUrl: string | null;
  output(): string;
  /** Resolves when the process ends by itself or is stopped; a server that exits on its own is seen here. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Stops the process with `signal` and answers how it ended; `beforeCleanUp` may look at the data directory
   * before it is removed.
   */
  stop(options?: {
    signal?: NodeJS.Signals;
    beforeCleanUp?: (dataDir: string) => void;
    /** Leave the data directory and the database in place, for a server restarted on them (`StartOptions.restartOf`). */
    keepData?: boolean;
  }): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** `main` runs the built server directly; `npm-start` runs `scripts/start.mjs`, as `npm start` does. */
  entry?: 'main' | 'npm-start';
  /**
   * Start again on a stopped server's port, data directory and database (stopped with `keepData`), as an operator
   * restarts with new settings: a browser on that origin keeps its cookies and storage. This server cleans up.
   */
  restartOf?: Pick<KupaServer, 'baseUrl' | 'dataDir' | 'databaseUrl'>;
  /** Run the build of another checkout (an A/B bench starts two); by default this one's. */
  repoRoot?: string;
}

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 90_000;

/**
 * Linux hands out 32768–60999 to outgoing connections (`ip_local_port_range`); a port asked of the kernel comes from
 * there too, and between its release and the server's listen a connection to PostgreSQL could take it (the fleet
 * journey once met EADDRINUSE). Servers under test listen below that range instead, on a port found free.
 */
const TEST_PORT_RANGE = { from: 20_000, to: 32_000 } as const;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // Where the server will listen: every address, as Nest's listen(port) does.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = TEST_PORT_RANGE.from + Math.floor(Math.random() * (TEST_PORT_RANGE.to - TEST_PORT_RANGE.from));
    if (await bindable(port)) return port;
  }
  throw new Error(`No free port between ${TEST_PORT_RANGE.from} and ${TEST_PORT_RANGE.to} after 100 tries`);
}

/** With DATABASE_URL set, each server gets a fresh database on that PostgreSQL; otherwise the embedded default. */
export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return null;
  const name = `kupa_e2e_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return existingDatabase(serverUrl, url.toString());
}

/** A database made by `freshDatabaseUrl` on the PostgreSQL at `serverUrl`, and how to drop it. */
function existingDatabase(serverUrl: string, url: string): { url: string; drop: () => Promise<void> } {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  return {
    url,
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startKupaServer(env: Record<string, string>, options: StartOptions = {}): Promise<KupaServer> {
  const previous = options.restartOf;
  const port = previous ? Number(new URL(previous.baseUrl).port) : await freePort();
  const dataDir = previous?.dataDir ?? mkdtempSync(join(tmpdir(), 'kupa-e2e-'));
  // The embedded PostgreSQL runs as the postgres user when we are root; it must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  const database = previous
    ? previous.databaseUrl && process.env.DATABASE_URL
      ? existingDatabase(process.env.DATABASE_URL, previous.databaseUrl)
      : null
    : await freshDatabaseUrl();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const entry = options.entry === 'npm-start' ? 'scripts/start.mjs' : 'services/api/dist/main.js';
  const root = options.repoRoot ?? REPO_ROOT;
  const child: ChildProcess = spawn(process.execPath, [join(root, entry)], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      KUPA_DATA_DIR: dataDir,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      // The journeys pay on the sandbox cashier's invoice page and provision into the simulator: on a named database
      // (CI's PostgreSQL run) those run only when asked for (docs/adr/0055-sandboxes-only-on-demand.md).
      KUPA_SANDBOX: '1',
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Kupa exited during start:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/common/app/version`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Kupa did not start within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    baseUrl,
    pid: child.pid ?? 0,
    dataDir,
    databaseUrl: database?.url ?? null,
    output: () => output,
    exited,
    stop: async ({ signal = 'SIGTERM', beforeCleanUp, keepData = false } = {}) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      const ended = await exited;
      beforeCleanUp?.(dataDir);
      if (keepData) return ended;
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      return ended;
    },
  };
}
