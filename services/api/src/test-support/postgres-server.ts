import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase, type DatabaseHandle } from '../platform/database/embedded-database';

/** What the embedded test server printed, kept whole for the run so that its end can say what went wrong inside. */
const SERVER_LOG_FILE = 'server.log';

/**
 * Lines of the server's log that mean a spec's connections were cut or refused by the server itself: a backend that
 * crashed takes every connection down with it while the server recovers, and a refused connection hangs an app's
 * start in TypeORM's retries. Not the FATAL lines specs cause on purpose (DROP DATABASE … WITH (FORCE),
 * pg_terminate_backend).
 */
export const SERVER_TROUBLE =
  /PANIC|terminated by signal|reinitializ|out of memory|could not fork|too many clients|in recovery mode|crash/i;

/**
 * The run's server is thrown away at its end, so nothing it writes needs to survive a power cut: no flush to disk per
 * commit or checkpoint. A crashed backend is still recovered from, since the operating system keeps what was written.
 * `KUPA_TEST_PG_DURABLE=1` keeps the defaults, to compare.
 */
const THROW_AWAY_SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

export interface TestServer {
  adminUrl: string;
  handle: DatabaseHandle | null;
  /** The embedded server's log file; null on DATABASE_URL's server. */
  logPath: string | null;
}

/**
 * The PostgreSQL server a test run uses: DATABASE_URL when set (any PostgreSQL >= 15), else a throw-away embedded
 * server. Each test file then creates its own database on it (see test-database.ts).
 */
export async function startTestServer(): Promise<TestServer> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, handle: null, logPath: null };
  const dataDir = mkdtempSync(join(tmpdir(), 'kupa-test-pg-'));
  // The server runs as the postgres user when we are root, so it must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  const logPath = join(dataDir, SERVER_LOG_FILE);
  const log: WriteStream = createWriteStream(logPath, { flags: 'a' });
  const handle = await openEmbeddedDatabase({
    dataDir,
    persistent: false,
    log: (line) => log.write(`${line}\n`),
    settings: process.env.KUPA_TEST_PG_DURABLE ? [] : THROW_AWAY_SETTINGS,
  });
  return { adminUrl: handle.url, handle, logPath };
}

/** The lines of the server's log that tell of trouble (SERVER_TROUBLE), at most `limit` of them. */
export function serverTroubleLines(logPath: string | null, limit = 40): string[] {
  if (!logPath || !existsSync(logPath)) return [];
  return readFileSync(logPath, 'utf8')
    .split('\n')
    .filter((line) => SERVER_TROUBLE.test(line))
    .slice(0, limit);
}
