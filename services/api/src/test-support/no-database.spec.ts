import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { openEmbeddedDatabase } from '../platform/database/embedded-database';
import { createTestDatabase } from './test-database';

// The unit project's guard (no-database.ts) is what keeps `npm run test:unit` free of PostgreSQL: these prove it bites.
describe('a unit spec that reaches for PostgreSQL', () => {
  it('finds no server named in the environment, so the test-database helpers refuse', async () => {
    expect(process.env.DATABASE_URL).toBeUndefined();
    await expect(createTestDatabase()).rejects.toThrow(/No test PostgreSQL/);
  });

  it('is refused a connection, through a client or a pool', async () => {
    const url = 'postgres://postgres@127.0.0.1:5432/postgres';
    await expect(new Client({ connectionString: url }).connect()).rejects.toThrow(/rename it \*\.int-spec\.ts/);
    const pool = new Pool({ connectionString: url });
    await expect(pool.query('SELECT 1')).rejects.toThrow(/rename it \*\.int-spec\.ts/);
    await pool.end();
  });

  it('cannot start the embedded server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kupa-no-database-'));
    try {
      await expect(openEmbeddedDatabase({ dataDir, persistent: false })).rejects.toThrow(
        /start the embedded PostgreSQL/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
