import { Client } from 'pg';
import { createTestDatabase } from './test-database';

describe('test PostgreSQL', () => {
  it('creates an isolated database that speaks xid8 snapshots', async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const result = await client.query(
      "SELECT current_setting('server_version_num')::int AS version, pg_current_xact_id()::text AS xid",
    );
    await client.end();
    await database.drop();
    expect(result.rows[0].version).toBeGreaterThanOrEqual(150000);
    expect(result.rows[0].xid).toMatch(/^\d+$/);
  });
});
