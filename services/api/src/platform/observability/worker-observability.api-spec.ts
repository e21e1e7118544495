import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { eventually } from '../event-store/event-store.fixtures';
import { ProcessorRunner } from '../projections';
import { BackgroundWork } from '../workers';
import { Metrics } from './metrics';
import { startWorkerObservability, type WorkerObservability } from './worker-observability';

/**
 * A worker's health and metrics on a port of its own (docs/adr/0063): the server a worker process starts, on the
 * application and real database of the spec, whose background work starts stopped so that queues can fill up and
 * be watched draining. The scrapes go over real HTTP to the port the server chose.
 */
describe('worker health and metrics', () => {
  const METRICS_TOKEN = 'worker-scrape-token';
  let testApp: TestApp;
  let server: WorkerObservability;
  let base: string;

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false, env: { METRICS_TOKEN } });
    const work = testApp.app.get(BackgroundWork);
    server = await startWorkerObservability({
      port: 0,
      config: testApp.config,
      metrics: testApp.app.get(Metrics),
      dataSource: testApp.dataSource,
      working: () => work.running,
    });
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
  });

  const scrape = async (authorization = `Bearer ${METRICS_TOKEN}`) => {
    const response = await fetch(`${base}/metrics`, { headers: { authorization } });
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
  };
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** The value of one sample in the exposition text, or null when the series is absent. */
  const sample = (text: string, series: string): number | null => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? null : Number(line.slice(series.length + 1));
  };

  it('is live at once, and ready only while the database answers, the schema is current and the work runs', async () => {
    expect(await get('/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get('/health/ready')).toEqual({
      status: 503,
      body: {
        status: 'error',
        details: { database: { status: 'up' }, migrations: { status: 'up' }, work: { status: 'down' } },
      },
    });
    testApp.app.get(BackgroundWork).start();
    try {
      expect(await get('/health/ready')).toEqual({
        status: 200,
        body: {
          status: 'ok',
          details: { database: { status: 'up' }, migrations: { status: 'up' }, work: { status: 'up' } },
        },
      });
    } finally {
      await testApp.app.get(BackgroundWork).stop();
    }
  });

  it('guards /metrics with METRICS_TOKEN as the API does, and answers nothing else', async () => {
    for (const authorization of ['', 'Bearer ', `Bearer ${METRICS_TOKEN}x`]) {
      const refused = await scrape(authorization);
      expect([refused.status, JSON.parse(refused.text).error]).toEqual([401, 'error.token.invalid']);
      expect(refused.text).not.toContain('kupa_');
    }
    const allowed = await scrape();
    expect(allowed.status).toBe(200);
    expect(allowed.type).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect((await get('/api/metrics')).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(400);
  });

  it('refuses every scrape where a real deployment set no token', async () => {
    const closed = await startWorkerObservability({
      port: 0,
      config: { metricsToken: null, databaseUrl: 'postgres://elsewhere/kupa' },
      metrics: testApp.app.get(Metrics),
      dataSource: testApp.dataSource,
      working: () => true,
    });
    try {
      const response = await fetch(`http://127.0.0.1:${closed.port}/metrics`);
      expect([response.status, ((await response.json()) as { error: string }).error]).toEqual([
        403,
        'error.metrics.token.unset',
      ]);
    } finally {
      await closed.close();
    }
  });

  it('shows the mail outbox, the provisioning queue and the processor lag grow, then drain', async () => {
    const runner = testApp.app.get(ProcessorRunner);
    const idle = (await scrape()).text;
    expect(sample(idle, 'kupa_mail_outbox_unsent')).toBe(0);
    expect(sample(idle, 'kupa_mail_outbox_oldest_unsent_seconds')).toBe(0);
    expect(sample(idle, 'kupa_provisioning_jobs_pending')).toBe(0);
    expect(sample(idle, 'kupa_db_pool_waiting_requests')).toBe(0);

    // Two sign-ups: their events wait for the processors, which are stopped, as when no worker runs.
    for (const name of ['worker-one', 'worker-two']) {
      const signUp = await testApp.http.post('/api/auth/signup').send({
        email: `${name}-${randomUUID().slice(0, 8)}@example.com`,
        password: 'Worker-0063-pass',
        firstName: 'Dana',
        lastName: 'Levi',
        termsAccepted: true,
        language: 'en',
      });
      expect(signUp.status).toBe(201);
    }
    const waiting = (await scrape()).text;
    expect(sample(waiting, 'kupa_processor_lag_events{processor="identity-mails"}')).toBeGreaterThanOrEqual(2);
    expect(sample(waiting, 'kupa_processor_lag_seconds{processor="identity-mails"}')).toBeGreaterThan(0);

    // The mail processor turns them into two confirmation mails; the dispatcher has not sent them.
    await runner.drain('identity-mails');
    // A job as the provisioning processor records one, five seconds old (written here: the platform knows no context).
    await testApp.dataSource.query(
      `INSERT INTO provisioning_jobs (id, subscription_id, operation, parameters, causation_event_id, next_attempt_at,
                                      created_at)
       VALUES ($1, $2, 'EXTEND_ACCOUNT', $3::jsonb, 99990063, now() + interval '1 hour', now() - interval '5 seconds')`,
      [randomUUID(), randomUUID(), JSON.stringify({ login: 'tv-worker-0063', expiresAt: '2030-01-01T00:00:00.000Z' })],
    );
    const queued = (await scrape()).text;
    expect(sample(queued, 'kupa_processor_lag_events{processor="identity-mails"}')).toBe(0);
    expect(sample(queued, 'kupa_mail_outbox_unsent')).toBe(2);
    expect(sample(queued, 'kupa_mail_outbox_oldest_unsent_seconds')).toBeGreaterThan(0);
    expect(sample(queued, 'kupa_provisioning_jobs_pending')).toBe(1);
    expect(sample(queued, 'kupa_provisioning_oldest_pending_seconds')).toBeGreaterThanOrEqual(5);

    // The dispatcher sends them, and the same scrape counts the mails it sent.
    const work = testApp.app.get(BackgroundWork);
    work.start();
    try {
      // The dispatcher counts a mail once it is marked sent: the outbox may read empty a moment before the count.
      const sent = await eventually(
        () => scrape(),
        (response) =>
          sample(response.text, 'kupa_mail_outbox_unsent') === 0 &&
          (sample(response.text, 'kupa_mails_total{outcome="sent"}') ?? 0) >= 2,
        'the outbox drained and its mails counted',
      );
      expect(sample(sent.text, 'kupa_mail_outbox_oldest_unsent_seconds')).toBe(0);
    } finally {
      await work.stop();
    }
  });
});
