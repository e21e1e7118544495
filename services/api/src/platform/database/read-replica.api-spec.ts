import type { Page, Payment } from '@kupa/proto';
import { Client } from 'pg';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { manualPayment, transfer } from '../../test-support/ledger-query-fixtures';
import { type ReplicaPair, startReplicaPair } from '../../test-support/replica-pair';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { Metrics } from '../observability/metrics';
import { type HeavyRead, REPLICA_APPLICATION_NAME, ReadSource } from './read-replica';

/**
 * Heavy reads on a real PostgreSQL 15 hot standby (docs/adr/0113-read-replicas.md): the search, export and dashboard
 * routes are served by the replica; a client's own transfer is visible to that client at once even while the standby
 * replays nothing, while another person's heavy read is still served by the (stale) replica; a standby that stops
 * leaves the reads to the primary.
 */
describe('read replica', () => {
  const database = 'kupa_replica_spec';
  let pair: ReplicaPair;
  let testApp: TestApp;
  /** A second API process on the same primary and replica, as in a fleet behind a load balancer. */
  let otherApp: TestApp;
  let metrics: Metrics;
  let admin: string;
  let sender: ActiveUser;
  let recipient: ActiveUser;

  /** How many `read`s `source` served so far. */
  async function served(read: HeavyRead, source: 'replica' | 'primary'): Promise<number> {
    const { values } = await metrics.heavyReads.get();
    return values.find((value) => value.labels.read === read && value.labels.source === source)?.value ?? 0;
  }

  async function fallbacks(reason: string, app: TestApp = testApp): Promise<number> {
    const { values } = await app.app.get(Metrics).replicaFallbacks.get();
    return values.filter((value) => value.labels.reason === reason).reduce((sum, value) => sum + value.value, 0);
  }

  async function searchPayments(token: string, app: TestApp = testApp): Promise<Page<Payment>> {
    const response = await app.http.post('/api/payments/search').set('Authorization', `Bearer ${token}`).send({});
    expect(response.status).toBe(200);
    return response.body as Page<Payment>;
  }

  /** The statements the app's replica connections last ran, as the standby itself reports them. */
  async function replicaStatements(): Promise<string[]> {
    const client = new Client({ connectionString: pair.replicaUrl('postgres') });
    await client.connect();
    try {
      const { rows } = await client.query<{ query: string }>(
        'SELECT query FROM pg_stat_activity WHERE application_name = $1 AND datname = $2',
        [REPLICA_APPLICATION_NAME, database],
      );
      return rows.map((row) => row.query);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    pair = await startReplicaPair();
    await pair.createDatabase(database);
    const options = {
      // The pair's servers and their directories go away in afterAll.
      database: { url: pair.primaryUrl(database), name: database, drop: async () => undefined },
      env: { DATABASE_REPLICA_URL: pair.replicaUrl(database), DATABASE_REPLICA_MAX_LAG_SECONDS: '300' },
    };
    testApp = await startTestApp(options);
    otherApp = await startTestApp({ ...options, backgroundWork: false });
    metrics = testApp.app.get(Metrics);
    admin = await adminToken(testApp);
    [sender, recipient] = [await createActiveUser(testApp), await createActiveUser(testApp)];
    await manualPayment(testApp, admin, sender.userUuid, 50, 'opening deposit');
    // Everything so far replayed, and the app has seen it: nobody's read waits for their own write.
    await pair.waitForReplay();
    await testApp.app.get(ReadSource).check();
    await otherApp.app.get(ReadSource).check();
  }, 120_000);

  afterAll(async () => {
    await otherApp?.close();
    await testApp?.close();
    await pair?.stop();
  });

  it('opens its replica connections without JIT compilation, as the primary ones (ADR 0132)', async () => {
    const replica = await testApp.app.get(ReadSource).source('payments-search');
    expect(replica).not.toBe(testApp.dataSource);
    expect(await replica.query('SHOW jit')).toEqual([{ jit: 'off' }]);
  });

  it('serves the payments search, the CSV export and the dashboard from the replica', async () => {
    const before = {
      search: await served('payments-search', 'replica'),
      export: await served('payments-export', 'replica'),
      dashboard: await served('dashboard', 'replica'),
    };
    const page = await searchPayments(admin);
    expect(page.content.map((payment) => payment.comment)).toContain('opening deposit');
    const csv = await testApp.http.post('/api/payments/export').set('Authorization', `Bearer ${admin}`).send({});
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('opening deposit');
    const dashboard = await testApp.http.get('/api/dashboard').set('Authorization', `Bearer ${admin}`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.deposits.thisMonth).toBe(50);

    expect({
      search: await served('payments-search', 'replica'),
      export: await served('payments-export', 'replica'),
      dashboard: await served('dashboard', 'replica'),
    }).toEqual({ search: before.search + 1, export: before.export + 1, dashboard: before.dashboard + 1 });
    // The standby itself saw the app's connections run them.
    const statements = await replicaStatements();
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((statement) => /FROM payments/i.test(statement))).toBe(true);
    const scrape = await testApp.rawHttp.get('/api/metrics');
    expect(scrape.text).toMatch(/^kupa_replica_up 1$/m);
    expect(scrape.text).toMatch(/^kupa_replica_lag_seconds \d/m);
  });

  it("shows a client's own transfer at once while the standby replays nothing, on every API process, and serves others from the replica", async () => {
    await pair.pauseReplay();
    try {
      const ownWritesBefore = await fallbacks('own_write');
      const replicaSearchesBefore = await served('payments-search', 'replica');
      const sent = await transfer(testApp, sender.accessToken, recipient.email, 7);

      // The sender reads their own write: from the primary, though the standby has not applied it.
      const senderPage = await searchPayments(sender.accessToken);
      expect(senderPage.content.map((payment) => payment.paymentId)).toContain(sent.paymentId);
      expect(await fallbacks('own_write')).toBe(ownWritesBefore + 1);
      // So does the other API process, which did not take the write: the position is kept on the primary.
      const otherOwnWritesBefore = await fallbacks('own_write', otherApp);
      const otherPage = await searchPayments(sender.accessToken, otherApp);
      expect(otherPage.content.map((payment) => payment.paymentId)).toContain(sent.paymentId);
      expect(await fallbacks('own_write', otherApp)).toBe(otherOwnWritesBefore + 1);

      // The recipient and the admin wrote nothing: the replica serves them, and it does not hold the transfer yet.
      const recipientPage = await searchPayments(recipient.accessToken);
      expect(recipientPage.content.filter((payment) => payment.type === 'TRANSFER_IN')).toEqual([]);
      const adminPage = await searchPayments(admin);
      expect(adminPage.content.map((payment) => payment.paymentId)).not.toContain(sent.paymentId);
      expect(await served('payments-search', 'replica')).toBe(replicaSearchesBefore + 2);
      const dashboard = await testApp.http.get('/api/dashboard').set('Authorization', `Bearer ${admin}`);
      expect(dashboard.status).toBe(200);
    } finally {
      await pair.resumeReplay();
    }
    await pair.waitForReplay();

    // Replayed: the recipient sees it on the replica, and the sender's reads go back to the replica too.
    const recipientPage = await searchPayments(recipient.accessToken);
    expect(recipientPage.content.filter((payment) => payment.type === 'TRANSFER_IN')).toHaveLength(1);
    const replicaSearches = await served('payments-search', 'replica');
    await searchPayments(sender.accessToken);
    expect(await served('payments-search', 'replica')).toBe(replicaSearches + 1);
  });

  it('answers from the primary when the standby stops, and counts the fallback', async () => {
    const primaryBefore = await served('payments-search', 'primary');
    await pair.stopReplica();
    const page = await searchPayments(admin);
    expect(page.content.filter((payment) => payment.type === 'TRANSFER_IN')).toHaveLength(1);
    expect(await served('payments-search', 'primary')).toBe(primaryBefore + 1);
    expect((await fallbacks('query_failed')) + (await fallbacks('down'))).toBeGreaterThanOrEqual(1);
    await testApp.app.get(ReadSource).check();
    const scrape = await testApp.rawHttp.get('/api/metrics');
    expect(scrape.text).toMatch(/^kupa_replica_up 0$/m);
  });
});
