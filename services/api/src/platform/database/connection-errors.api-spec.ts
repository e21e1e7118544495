import type { Pool } from 'pg';
import { startTestApp, type TestApp } from '../../test-support/test-app';

describe('a database connection that fails while nobody queries it', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false, captureLogs: true, env: { LOG_LEVEL: 'warn' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is logged and thrown away, and the process and the pool carry on', async () => {
    const pool = (testApp.dataSource.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);

    // The server ends the connection while it is checked out and idle: the moment no pool or TypeORM listener has it.
    // Not `events.once`: it would reject on the very error under test.
    const ended = new Promise((resolve) => client.once('end', resolve));
    await testApp.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await ended;

    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    expect(testApp.logLines.some((line) => line.includes('A database connection failed outside a query'))).toBe(true);
    const answer: { one: number }[] = await testApp.dataSource.query('SELECT 1 AS one');
    expect(answer).toEqual([{ one: 1 }]);
  });

  it('opens every connection of the pool without JIT compilation (ADR 0132)', async () => {
    const pool = (testApp.dataSource.driver as unknown as { master: Pool }).master;
    const clients = [await pool.connect(), await pool.connect()];
    try {
      for (const client of clients) expect((await client.query('SHOW jit')).rows).toEqual([{ jit: 'off' }]);
    } finally {
      for (const client of clients) client.release();
    }
  });
});
