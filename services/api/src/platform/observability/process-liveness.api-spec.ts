import { startTestApp, type TestApp } from '../../test-support/test-app';
import { Metrics } from './metrics';
import { markProcessNotLive } from './process-liveness';
import { startWorkerObservability } from './worker-observability';

/**
 * Liveness answers for the process's own verdict (docs/adr/0064-supervised-embedded-database.md): 200 while it can
 * recover by itself, 503 once it has given itself up (its embedded PostgreSQL did not come back) and is exiting.
 * A file of its own: the verdict is process-wide and never taken back.
 */
describe('GET /api/health/live', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ backgroundWork: false });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 200 while the process can recover, then 503 naming the check once it has given itself up', async () => {
    expect((await testApp.rawHttp.get('/api/health/live')).status).toBe(200);
    markProcessNotLive('embedded PostgreSQL could not be restarted in 5 attempts');
    const live = await testApp.rawHttp.get('/api/health/live');
    expect(live.status).toBe(503);
    expect(live.body).toMatchObject({
      status: 'error',
      error: { process: { status: 'down', reason: 'unrecoverable' } },
    });
    // The reason's words (which may name paths) stay in the log; readiness is not what answers for it.
    expect(JSON.stringify(live.body)).not.toContain('PostgreSQL');

    // A worker's own port answers the same verdict.
    const worker = await startWorkerObservability({
      port: 0,
      config: { metricsToken: null, databaseUrl: null },
      metrics: testApp.app.get(Metrics),
      dataSource: testApp.dataSource,
      working: () => true,
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${worker.port}/health/live`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({
        status: 'error',
        details: { process: { status: 'down', reason: 'unrecoverable' } },
      });
    } finally {
      await worker.close();
    }
  });
});
