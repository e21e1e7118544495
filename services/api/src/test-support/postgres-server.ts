import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase, type DatabaseHandle } from '../platform/database/embedded-database';

/**
 * The PostgreSQL server a test run uses: DATABASE_URL when set (any PostgreSQL >= 15), else a throw-away embedded
 * server. Each test file then creates its own database on it (see test-database.ts).
 */
export async function startTestServer(): Promise<{ adminUrl: string; handle: DatabaseHandle | null }> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, handle: null };
  const dataDir = mkdtempSync(join(tmpdir(), 'kupa-test-pg-'));
  // The server runs as the postgres user when we are root, so it must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  const handle = await openEmbeddedDatabase({ dataDir, persistent: false });
  return { adminUrl: handle.url, handle };
}
