import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from '../platform/database/embedded-database';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server binaries; CI installs the same package (docs/adr/0113-read-replicas.md). */
export const POSTGRES_15_BIN = process.env.KUPA_PG15_BIN ?? '/usr/lib/postgresql/15/bin';
const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'] as const;
/** The operating-system user the servers run as when the specs run as root (PostgreSQL refuses to run as root). */
const SERVER_OS_USER = 'postgres';

/**
 * A PostgreSQL 15 primary and a hot standby streaming from it, each on a free loopback port in a temporary
 * directory: what the read replica's spec runs against. Started in a few seconds (no fsync, a fast base backup).
 */
export interface ReplicaPair {
  /** A database's address on the primary, and on the standby (the same database, replicated). */
  primaryUrl(database: string): string;
  replicaUrl(database: string): string;
  /** Creates a database on the primary and waits until the standby has replayed it. */
  createDatabase(name: string): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** `pg_wal_replay_pause()` / `pg_wal_replay_resume()` on the standby: WAL keeps arriving but is not applied. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the standby at once, as a crash would. */
  stopReplica(): Promise<void>;
  /** Stops both servers and removes their directories. */
  stop(): Promise<void>;
}

/** Fails the spec with what to install, rather than skipping it: CI and this machine have the binaries. */
function assertBinaries(): void {
  const missing = TOOLS.filter((tool) => !existsSync(join(POSTGRES_15_BIN, tool)));
  if (missing.length > 0)
    throw new Error(
      `The read replica spec needs PostgreSQL 15's server binaries in ${POSTGRES_15_BIN} (missing: ${missing.join(', ')}). ` +
        "Install Debian's postgresql-15 package (apt-get install postgresql-15), or point KUPA_PG15_BIN at them.",
    );
}

const asRoot = process.getuid?.() === 0;

/** Runs one of the server binaries, as the `postgres` user when we are root. */
async function tool(name: (typeof TOOLS)[number], args: string[]): Promise<void> {
  const binary = join(POSTGRES_15_BIN, name);
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', SERVER_OS_USER, '--', binary, ...args]] : [binary, args];
  try {
    await run(command, commandArgs, { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
  }
}

async function osUserIds(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Settings for servers that live a few seconds and hold nothing worth keeping. */
function serverOptions(port: number, socketDir: string): string {
  return [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${socketDir}'`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c wal_level=replica',
    '-c max_wal_senders=4',
    '-c hot_standby=on',
    '-c max_connections=60',
    '-c shared_buffers=32MB',
  ].join(' ');
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  assertBinaries();
  const base = mkdtempSync(join(tmpdir(), 'kupa-replica-pair-'));
  const primaryDir = join(base, 'primary');
  const standbyDir = join(base, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  if (asRoot) {
    const { uid, gid } = await osUserIds(SERVER_OS_USER);
    chownSync(base, uid, gid);
  }
  chmodSync(base, 0o755);
  const started: string[] = [];
  const stopServer = async (dir: string) => {
    if (!started.includes(dir)) return;
    started.splice(started.indexOf(dir), 1);
    await tool('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  };
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const replayLsnReached = async (): Promise<boolean> => {
    const target = await withClient(url(primaryPort, 'postgres'), async (client) => {
      return (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
    });
    return withClient(url(standbyPort, 'postgres'), async (client) => {
      const { rows } = await client.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [
        target,
      ]);
      return rows[0].done;
    });
  };
  const pair: ReplicaPair = {
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(standbyPort, database),
    createDatabase: async (name) => {
      await withClient(url(primaryPort, 'postgres'), (client) => client.query(`CREATE DATABASE "${name}"`));
      await pair.waitForReplay();
    },
    waitForReplay: async (timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await replayLsnReached())) {
        if (Date.now() > deadline) throw new Error(`The standby did not replay the primary's WAL in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    pauseReplay: async () => {
      await withClient(url(standbyPort, 'postgres'), (client) => client.query('SELECT pg_wal_replay_pause()'));
    },
    resumeReplay: async () => {
      await withClient(url(standbyPort, 'postgres'), (client) => client.query('SELECT pg_wal_replay_resume()'));
    },
    stopReplica: () => stopServer(standbyDir),
    stop: async () => {
      await stopServer(standbyDir);
      await stopServer(primaryDir);
      rmSync(base, { recursive: true, force: true });
    },
  };
  try {
    await tool('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    await tool('pg_ctl', [
      '-D',
      primaryDir,
      '-l',
      join(base, 'primary.log'),
      '-o',
      serverOptions(primaryPort, base),
      '-w',
      'start',
    ]);
    started.push(primaryDir);
    // -R writes standby.signal and primary_conninfo; a fast checkpoint starts the copy at once.
    await tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await tool('pg_ctl', [
      '-D',
      standbyDir,
      '-l',
      join(base, 'standby.log'),
      '-o',
      serverOptions(standbyPort, base),
      '-w',
      'start',
    ]);
    started.push(standbyDir);
    await pair.waitForReplay();
    return pair;
  } catch (error) {
    await pair.stop();
    throw error;
  }
}
