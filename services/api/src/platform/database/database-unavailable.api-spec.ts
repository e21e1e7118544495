import { createServer } from 'node:net';
import { Client, type Pool, type PoolClient } from 'pg';
import { DATABASE_POOL_SIZE } from '../../app.module';
import { eventually } from '../../test-support/eventually';
import { adminToken } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/api-error.filter';
import { Metrics } from '../observability/metrics';
import { databaseUnavailability } from './connection-errors';

/** What the pool waits for a connection in this spec: long enough for a quiet request, short for a spec. */
const CONNECT_TIMEOUT_MS = 400;

async function unavailableCount(testApp: TestApp, reason: 'busy' | 'down'): Promise<number> {
  const values = (await testApp.app.get(Metrics).databaseUnavailable.get()).values;
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

/** The error a fresh connection to `url` fails with. */
async function connectionError(url: string): Promise<unknown> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  const error = await client.connect().then(
    () => null,
    (caught: unknown) => caught,
  );
  await client.end().catch(() => undefined);
  return error;
}

describe('a database that cannot give the request a connection (ADR 0127)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      backgroundWork: false,
      env: { DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS) },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 503 error.service.unavailable with Retry-After while the pool is exhausted, and serves again after', async () => {
    const token = await adminToken(testApp);
    await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`).expect(200);
    const busyBefore = await unavailableCount(testApp, 'busy');

    const pool = (testApp.dataSource.driver as unknown as { master: Pool }).master;
    const held: PoolClient[] = [];
    try {
      for (let index = 0; index < DATABASE_POOL_SIZE; index += 1) held.push(await pool.connect());
      const answer = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 503, error: 'error.service.unavailable' });
      expect(answer.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(answer.headers['cache-control']).toContain('no-store');
      expect(await unavailableCount(testApp, 'busy')).toBe(busyBefore + 1);
    } finally {
      for (const client of held) client.release();
    }

    await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('tells a server out of connections (53300) as busy, and a refused or dropped one as down', async () => {
    // Superusers pass every connection limit, so the full server is a role allowed no connection at all.
    const role = `kupa_t_busy_${process.pid}_${Date.now()}`;
    await testApp.dataSource.query(`CREATE ROLE ${role} LOGIN PASSWORD 'busy' CONNECTION LIMIT 0`);
    try {
      const url = new URL(testApp.database.url);
      url.username = role;
      url.password = 'busy';
      const refused = await connectionError(url.toString());
      expect(refused).toMatchObject({ code: '53300' });
      expect(databaseUnavailability(refused)).toBe('busy');
    } finally {
      await testApp.dataSource.query(`DROP ROLE ${role}`);
    }

    // A port nobody listens on any more.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const closed = await connectionError(`postgres://postgres@127.0.0.1:${port}/postgres`);
    expect(closed).toMatchObject({ code: 'ECONNREFUSED' });
    expect(databaseUnavailability(closed)).toBe('down');

    // A connection the server ends under a query: what a restart or a failover does to the statements in flight.
    const victim = new Client({ connectionString: testApp.database.url });
    victim.on('error', () => undefined);
    await victim.connect();
    const pid = Number((await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    const sleeping = victim.query('SELECT pg_sleep(30)').then(
      () => null,
      (caught: unknown) => caught,
    );
    // Once the sleep is running: before that there is no statement to end.
    await eventually(
      async (): Promise<{ ended: boolean }[]> =>
        testApp.dataSource.query(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE pid = $1 AND state = 'active'`,
          [pid],
        ),
      (ended) => ended.length === 1 && ended[0].ended,
      'the sleeping connection ended',
      10_000,
    );
    const dropped = await sleeping;
    await victim.end().catch(() => undefined);
    expect(databaseUnavailability(dropped)).toBe('down');
  });
});
