import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, freshDatabaseUrl } from './kupa-server.ts';

/**
 * Kupa as a fleet of processes on one database (docs/adr/0036-processes-and-roles.md): API processes
 * (`KUPA_ROLE=api`), workers, the `kupa` command line, and on the embedded database a process that runs PostgreSQL
 * alone, each started from the built tree as an operator would, each killable on its own.
 */
const REPO_ROOT = join(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 90_000;

export interface Fleet {
  dataDir: string;
  /** The fresh database on the DATABASE_URL server; null on the embedded one. */
  databaseUrl: string | null;
  /** The environment every process of the fleet shares. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A data directory and, with DATABASE_URL set, a fresh database of its own on that server. */
export async function prepareFleet(env: Record<string, string> = {}): Promise<Fleet> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kupa-fleet-'));
  // The embedded PostgreSQL runs as the postgres user when we are root; it must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  const database = await freshDatabaseUrl();
  return {
    dataDir,
    databaseUrl: database?.url ?? null,
    env: {
      KUPA_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      DEMO_DATA: '0',
      LOG_LEVEL: 'log',
      // The fleet provisions into the simulator and may pay on the sandbox cashier, on a named database too.
      KUPA_SANDBOX: '1',
      WORKER_POLL_INTERVAL_MS: '100',
      MAIL_RETRY_BASE_MS: '200',
      MAIL_RETRY_MAX_MS: '1000',
      // Retries start fast but last about 75 s: fleet journeys kill the API, through which provisioning reaches its
      // simulator, and a purchase whose retries ran out before the API listened again would be refunded as designed.
      PROVISIONING_RETRY_BASE_MS: '200',
      PROVISIONING_RETRY_MAX_MS: '2000',
      PROVISIONING_RETRY_ATTEMPTS: '40',
      PROVISIONING_TIMEOUT_MS: '3000',
      // A job a killed worker held goes to another after this, not after the production minute and more.
      PROVISIONING_LEASE_MS: '15000',
      ...env,
    },
    close: async () => {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface KupaProcess {
  name: string;
  pid: number;
  /** Where an API process answers; null for a worker or the database. */
  baseUrl: string | null;
  output(): string;
  /** The JSON log records it wrote (lines that are not JSON are left out). */
  records(): Record<string, unknown>[];
  kill(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after 20 s; answers how it ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

interface SpawnOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  baseUrl: string | null;
  ready: (process: KupaProcess) => Promise<boolean>;
}

async function spawnProcess(options: SpawnOptions): Promise<KupaProcess> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, options.args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const handle: KupaProcess = {
    name: options.name,
    pid: child.pid ?? 0,
    baseUrl: options.baseUrl,
    output: () => output,
    records: () =>
      output.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    kill: (signal) => {
      if (running()) child.kill(signal);
    },
    exited,
    stop: async () => {
      if (running()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await options.ready(handle).catch(() => false))) {
    if (!running()) throw new Error(`${options.name} exited during start:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return handle;
}

export interface KupaProcessOptions {
  name: string;
  role: 'api' | 'worker' | 'all';
  /** `worker` runs `dist/worker.js`; otherwise `dist/main.js` with KUPA_ROLE. */
  entry?: 'main' | 'worker';
  /** The API's port (a free one by default); a worker reaches the provisioning simulator of the API on it. */
  port?: number;
  env?: Record<string, string>;
}

/** Starts a process of the fleet and waits until an API answers or a worker says it runs. */
export async function startKupaProcess(fleet: Fleet, options: KupaProcessOptions): Promise<KupaProcess> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const serves = options.role !== 'worker';
  const entry = options.entry === 'worker' ? 'services/api/dist/worker.js' : 'services/api/dist/main.js';
  return spawnProcess({
    name: options.name,
    args: [join(REPO_ROOT, entry)],
    env: {
      ...fleet.env,
      ...(options.entry === 'worker' ? {} : { KUPA_ROLE: options.role }),
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      // A worker's health and metrics port: any free one, so that workers of several fleets never collide.
      WORKER_PORT: '0',
      ...options.env,
    },
    baseUrl: serves ? baseUrl : null,
    ready: async (started) =>
      serves
        ? (await fetch(`${baseUrl}/api/common/app/version`)).ok
        : /worker is running the processors/.test(started.output()),
  });
}

/** The embedded PostgreSQL of the fleet's data directory, run by a process of its own. */
export async function startEmbeddedDatabase(fleet: Fleet): Promise<KupaProcess> {
  return spawnProcess({
    name: 'embedded PostgreSQL',
    args: ['--import', 'tsx', join(REPO_ROOT, 'test/support/embedded-database-process.ts'), fleet.dataDir],
    env: {},
    baseUrl: null,
    ready: async (started) => /^ready$/m.test(started.output()),
  });
}

/** Where the test itself reads the fleet's database: the fresh one, or the embedded one (its port is remembered). */
export function fleetDatabaseUrl(fleet: Fleet): string {
  if (fleet.databaseUrl) return fleet.databaseUrl;
  const password = readFileSync(join(fleet.dataDir, 'pg-password'), 'utf8').trim();
  const port = readFileSync(join(fleet.dataDir, 'pg-port'), 'utf8').trim();
  return `postgres://kupa:${encodeURIComponent(password)}@127.0.0.1:${port}/kupa`;
}

/**
 * Runs the `kupa` command line on the fleet's database and answers its exit code and output. Asynchronously: a
 * synchronous child would block this process, and the keep-alive connections `fetch` holds would be closed under it.
 */
export async function runKupaCli(
  fleet: Fleet,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services/api/bin/kupa.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...fleet.env, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
