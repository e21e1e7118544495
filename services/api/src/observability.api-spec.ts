import type { Plan, Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { EventStore } from './platform/event-store';
import { eventually, metadata } from './platform/event-store/event-store.fixtures';
import { ProcessorLagWatch } from './platform/observability';
import { ProcessorRunner } from './platform/projections';
import { BackgroundWork } from './platform/workers';
import { adminToken, createActiveUser } from './test-support/identity-fixtures';
import { startTestApp, type TestApp } from './test-support/test-app';

/**
 * Health probes, Prometheus metrics and request ids through HTTP on the whole app (docs/adr/0031-health-metrics-logs.md).
 * The probes and the scrape are outside the OpenAPI document, so they are called without its check (`rawHttp`).
 */
describe('health, metrics and request ids', () => {
  const METRICS_TOKEN = 'scrape-token-for-the-spec';
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      // The lag warnings are log lines; this spec starts no other app beside this one.
      captureLogs: true,
      env: {
        METRICS_TOKEN,
        LOG_LEVEL: 'log',
        PROCESSOR_LAG_ALERT_EVENTS: '2',
        PROCESSOR_LAG_ALERT_SECONDS: '1',
        // The bounds that turned readiness 503 before ADR 0063, set as low: they are read no more.
        READY_MAX_PROCESSOR_LAG_EVENTS: '2',
        READY_MAX_PROCESSOR_LAG_SECONDS: '1',
      },
    });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const ready = () => testApp.rawHttp.get('/api/health/ready');
  const scrape = () => testApp.rawHttp.get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  const deposit = (userUuid: string, requestId?: string) => {
    const call = testApp.http.post('/api/payments').set('Authorization', `Bearer ${admin}`);
    return (requestId ? call.set('X-Request-Id', requestId) : call).send({
      userUuid,
      amount: 5,
      action: 'DEPOSIT',
      comment: 'observability',
    });
  };

  const behind = (processor: string) => `kupa_processor_behind{processor="${processor}"}`;

  /** The value of one sample in the exposition text, or null when the series is absent. */
  const sample = (text: string, series: string): number | null => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? null : Number(line.slice(series.length + 1));
  };

  describe('liveness and readiness', () => {
    it('answers live with only the process verdict checked, publicly and with a request id', async () => {
      const live = await testApp.rawHttp.get('/api/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({
        status: 'ok',
        info: { process: { status: 'up' } },
        error: {},
        details: { process: { status: 'up' } },
      });
      expect(live.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers ready when the database answers and every migration is applied', async () => {
      const response = await ready();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'ok',
        info: { database: { status: 'up' }, migrations: { status: 'up' } },
        error: {},
        details: { database: { status: 'up' }, migrations: { status: 'up' } },
      });
    });

    it('is never rate limited', async () => {
      const answers = await Promise.all(Array.from({ length: 60 }, () => testApp.rawHttp.get('/api/health/live')));
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    });

    it('stays ready while the processors fall behind, which the metrics and one warning per change report', async () => {
      const work = testApp.app.get(BackgroundWork);
      const runner = testApp.app.get(ProcessorRunner);
      const watch = testApp.app.get(ProcessorLagWatch);
      const client = await createActiveUser(testApp);
      const caughtUp = () =>
        eventually(scrape, (response) => sample(response.text, behind('identity-mails')) === 0, 'caught up');
      await caughtUp();
      await work.stop();
      const from = testApp.logLines.length;
      const warnings = (text: string) => testApp.logLines.slice(from).filter((line) => line.includes(text)).length;
      // The log says which process led the processors, and that it stopped.
      const leadership = (verb: string) => `pid ${process.pid} ${verb} identity-mails`;
      expect(testApp.logLines.some((line) => line.includes(leadership('stopped leading')))).toBe(true);
      try {
        // Two deposits append four events, which no processor reads while the background work is stopped: as if
        // every worker were down.
        for (let index = 0; index < 2; index += 1) expect((await deposit(client.userUuid)).status).toBe(201);
        const stillReady = await ready();
        expect(stillReady.status).toBe(200);
        expect(Object.keys(stillReady.body.details)).toEqual(['database', 'migrations']);
        const text = (await scrape()).text;
        expect(sample(text, 'kupa_processor_lag_events{processor="identity-mails"}')).toBe(4);
        // The store's head is two commit positions past where the processor stands: one per deposit (ADR 0128).
        const head = sample(text, 'kupa_event_store_commit_position') ?? 0;
        expect(head - (sample(text, 'kupa_processor_checkpoint_position{processor="identity-mails"}') ?? head)).toBe(2);
        for (const name of runner.processorNames()) expect(sample(text, behind(name))).toBe(1);
        // Read again (a scrape, the watch's own timer): the warning is not repeated.
        await scrape();
        await watch.read();
        expect(warnings('Processor identity-mails is behind: 4 events')).toBe(1);

        await runner.drain();
        expect(sample((await scrape()).text, behind('identity-mails'))).toBe(0);
        expect(warnings('Processor identity-mails is within its lag thresholds again')).toBe(1);

        // One deposit (two events) is within the events threshold; once its events are older than a second, not.
        expect((await deposit(client.userUuid)).status).toBe(201);
        expect(sample((await scrape()).text, behind('identity-mails'))).toBe(0);
        const late = await eventually(
          scrape,
          (response) => sample(response.text, behind('identity-mails')) === 1,
          'behind on seconds',
        );
        expect(sample(late.text, 'kupa_processor_lag_events{processor="identity-mails"}')).toBe(2);
        expect(sample(late.text, 'kupa_processor_lag_seconds{processor="identity-mails"}')).toBeGreaterThan(1);
        expect(warnings('Processor identity-mails is behind: 2 events')).toBe(1);
        expect((await ready()).status).toBe(200);
      } finally {
        work.start();
      }
      await caughtUp();
      expect((await ready()).status).toBe(200);
      expect(warnings(leadership('leads'))).toBe(1);
    });

    it('answers 503 naming the pending migrations while the schema is not current, and recovers', async () => {
      const table = testApp.dataSource.options.migrationsTableName ?? 'migrations';
      const [newest]: { id: number; timestamp: string; name: string }[] = await testApp.dataSource.query(
        `SELECT id, timestamp, name FROM "${table}" ORDER BY id DESC LIMIT 1`,
      );
      await testApp.dataSource.query(`DELETE FROM "${table}" WHERE id = $1`, [newest.id]);
      try {
        const unready = await ready();
        expect(unready.status).toBe(503);
        expect(unready.body).toEqual({
          status: 'error',
          info: { database: { status: 'up' } },
          error: { migrations: { status: 'down', pending: 1 } },
          details: { database: { status: 'up' }, migrations: { status: 'down', pending: 1 } },
        });
        expect(sample((await scrape()).text, 'kupa_database_ready')).toBe(0);
      } finally {
        await testApp.dataSource.query(`INSERT INTO "${table}" (id, timestamp, name) VALUES ($1, $2, $3)`, [
          newest.id,
          newest.timestamp,
          newest.name,
        ]);
      }
      expect((await ready()).status).toBe(200);
      expect(sample((await scrape()).text, 'kupa_database_ready')).toBe(1);
    });
  });

  describe('request ids', () => {
    it('echoes a sane X-Request-Id and makes it the correlation id of the events the request appends', async () => {
      const client = await createActiveUser(testApp);
      const response = await deposit(client.userUuid, 'deposit-req-0031');
      expect(response.status).toBe(201);
      expect(response.headers['x-request-id']).toBe('deposit-req-0031');
      const events: { type: string }[] = await testApp.dataSource.query(
        `SELECT type FROM events WHERE metadata->>'correlationId' = $1 ORDER BY global_position`,
        ['deposit-req-0031'],
      );
      expect(events.map((event) => event.type).sort()).toEqual(['ManualDepositRecorded', 'PaymentRecorded']);
    });

    it('replaces an id that is not a short plain token by a generated one, on errors and unknown paths too', async () => {
      for (const unfit of ['two words', 'x'.repeat(129), '-leading-dash', 'quote"d', 'new\tline']) {
        const response = await testApp.rawHttp.get('/api/health/live').set('X-Request-Id', unfit);
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
      }
      const missing = await testApp.rawHttp.get('/api/no-such-route').set('X-Request-Id', 'lost:route.1');
      expect([missing.status, missing.headers['x-request-id']]).toEqual([404, 'lost:route.1']);
      const unauthenticated = await testApp.http.get('/api/users/me').set('X-Request-Id', 'no-token');
      expect([unauthenticated.status, unauthenticated.headers['x-request-id']]).toEqual([401, 'no-token']);
    });

    it('gives each request its own generated id', async () => {
      const [one, two] = await Promise.all([
        testApp.rawHttp.get('/api/health/live'),
        testApp.rawHttp.get('/api/health/live'),
      ]);
      expect(one.headers['x-request-id']).not.toBe(two.headers['x-request-id']);
    });
  });

  describe('metrics', () => {
    it('refuses a scrape without the configured token', async () => {
      const anonymous = await testApp.rawHttp.get('/api/metrics');
      expect([anonymous.status, anonymous.body.error]).toEqual([401, 'error.token.invalid']);
      const wrong = await testApp.rawHttp.get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`);
      expect(wrong.status).toBe(401);
      // An access token is not a scrape token.
      const staff = await testApp.rawHttp.get('/api/metrics').set('Authorization', `Bearer ${admin}`);
      expect(staff.status).toBe(401);
    });

    it('counts requests by route pattern, commands by route and outcome, and the pool', async () => {
      const client = await createActiveUser(testApp);
      expect((await deposit(client.userUuid)).status).toBe(201);
      const refused = await testApp.http
        .post('/api/payments')
        .set('Authorization', `Bearer ${admin}`)
        .send({ userUuid: client.userUuid, amount: 99999, action: 'WITHDRAW', comment: 'too much' });
      expect(refused.status).toBe(409);
      expect(
        (await testApp.http.get(`/api/users/${client.userUuid}`).set('Authorization', `Bearer ${admin}`)).status,
      ).toBe(200);

      const response = await scrape();
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
      const text = response.text;
      expect(
        sample(text, 'http_request_duration_seconds_count{method="POST",route="/api/payments",status_code="201"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/users/:uuid",status_code="200"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'kupa_commands_total{command="POST /api/payments",outcome="committed"}')).toBeGreaterThan(0);
      expect(sample(text, 'kupa_commands_total{command="POST /api/payments",outcome="rejected"}')).toBeGreaterThan(0);
      expect(sample(text, 'kupa_commands_total{command="POST /api/auth/signup",outcome="committed"}')).toBeGreaterThan(
        0,
      );
      expect(text).toContain('kupa_command_conflicts_total');
      expect(text).toContain('kupa_command_retries_total');
      expect(sample(text, 'kupa_db_pool_max_connections')).toBe(20);
      expect(sample(text, 'kupa_db_pool_waiting_requests')).not.toBeNull();
      // Each leading processor holds a connection for its advisory lock, so some are always in use.
      expect(sample(text, 'kupa_db_pool_connections{state="active"}')).toBeGreaterThan(0);
      expect(sample(text, 'kupa_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      // Labels are route patterns, never paths with ids, and the text names no user.
      expect(text).not.toContain(client.userUuid);
      expect(text).not.toContain('@');
    });

    it('reports each processor lag in events and seconds', async () => {
      const runner = testApp.app.get(ProcessorRunner);
      const text = (
        await eventually(
          scrape,
          (response) =>
            runner.processorNames().every((name) => sample(response.text, behind(name)) === 0) &&
            sample(response.text, 'kupa_mail_outbox_unsent') === 0,
          'processors caught up',
        )
      ).text;
      for (const name of testApp.app.get(ProcessorRunner).processorNames()) {
        expect(sample(text, `kupa_processor_lag_events{processor="${name}"}`)).toBe(0);
        expect(sample(text, `kupa_processor_lag_seconds{processor="${name}"}`)).toBe(0);
      }
    });

    it('reads no query waiting for a pool connection at idle: the scrape does not count its own', async () => {
      await eventually(scrape, (response) => sample(response.text, 'kupa_mail_outbox_unsent') === 0, 'idle');
      for (let index = 0; index < 3; index += 1)
        expect(sample((await scrape()).text, 'kupa_db_pool_waiting_requests')).toBe(0);
    });

    it('counts a transaction the event store started again after a deadlock, which then succeeds', async () => {
      // Two commands that each lock one stream up front and the other's late: PostgreSQL aborts one of them and the
      // store runs it again once the other has committed.
      const store = testApp.app.get(EventStore);
      const [first, second] = [`observed-${randomUUID()}`, `observed-${randomUUID()}`];
      let firstLocked!: () => void;
      let secondLocked!: () => void;
      const bothLocked = Promise.all([
        new Promise<void>((resolve) => (firstLocked = resolve)),
        new Promise<void>((resolve) => (secondLocked = resolve)),
      ]);
      const crossing = (own: string, other: string, locked: () => void) =>
        store.transact([own], metadata, async () => {
          locked();
          await bothLocked;
          const tick = { type: 'ObservedTick', data: { own } };
          return {
            appends: [own, other].map((streamId) => ({ streamId, expectedVersion: 'any' as const, events: [tick] })),
            result: null,
          };
        });
      await Promise.all([crossing(first, second, firstLocked), crossing(second, first, secondLocked)]);
      expect(await store.streamVersion(first)).toBe(2);
      expect(await store.streamVersion(second)).toBe(2);
      expect(
        sample((await scrape()).text, 'kupa_transaction_restarts_total{reason="deadlock"}'),
      ).toBeGreaterThanOrEqual(1);
    });

    it('counts mails and provisioning calls by outcome', async () => {
      const plan = await testApp.http
        .post('/api/payment-plans')
        .set('Authorization', `Bearer ${admin}`)
        .send({
          name: `Observed ${randomUUID().slice(0, 8)}`,
          durationInMonths: 1,
          price: 5,
          currency: 'USD',
          isRecurrent: true,
          description: 'For the metrics',
          features: ['HD'],
          status: 'ACTIVE',
        });
      expect(plan.status).toBe(201);
      const customer = await createActiveUser(testApp);
      expect((await deposit(customer.userUuid)).status).toBe(201);
      const bought = await testApp.http
        .post(`/api/subscriptions/balance/payment-plans/${(plan.body as Plan).id}`)
        .set('Authorization', `Bearer ${customer.accessToken}`)
        .send({ login: `tv${randomUUID().slice(0, 8)}`, password: 'pw-0031' });
      expect(bought.status).toBe(201);
      await eventually(
        () =>
          testApp.http
            .get(`/api/subscriptions/${(bought.body as Subscription).id}`)
            .set('Authorization', `Bearer ${admin}`),
        (response) => (response.body as Subscription).status === 'ACTIVE',
        'the subscription activated by provisioning',
      );
      const text = (await scrape()).text;
      expect(sample(text, 'kupa_mails_total{outcome="sent"}')).toBeGreaterThan(0);
      expect(
        sample(text, 'kupa_provisioning_calls_total{operation="CREATE_ACCOUNT",outcome="succeeded"}'),
      ).toBeGreaterThanOrEqual(1);
    });
  });
});
