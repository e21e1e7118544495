import { createTestDatabase } from '../../test-support/test-database';
import { startTestApp, type TestApp } from '../../test-support/test-app';

/**
 * `/api/metrics` without `METRICS_TOKEN` (docs/adr/0059-edges-refuse-what-they-cannot-read.md): open in the embedded
 * demo setup only. A process with `DATABASE_URL` set is a real deployment: there it refuses every scrape and warns at
 * start. Each app here captures its log lines, so they run one after the other.
 */
describe('metrics without a token', () => {
  it('refuses every scrape outside the embedded demo setup, and says why at start', async () => {
    const database = await createTestDatabase();
    const deployed: TestApp = await startTestApp({
      database,
      // A real deployment names a provisioning service; nothing here calls it.
      env: { DATABASE_URL: database.url, PROVISIONING_URL: 'http://127.0.0.1:9/', LOG_LEVEL: 'warn' },
      captureLogs: true,
    });
    try {
      for (const authorization of [null, 'Bearer ', 'Bearer anything']) {
        const call = deployed.rawHttp.get('/api/metrics');
        const response = authorization === null ? await call : await call.set('Authorization', authorization);
        expect({ authorization, status: response.status, error: response.body.error }).toEqual({
          authorization,
          status: 403,
          error: 'error.metrics.token.unset',
        });
        expect(response.text).not.toContain('http_request');
      }
      expect(deployed.logLines.filter((line) => line.includes('METRICS_TOKEN is not set'))).toHaveLength(1);
    } finally {
      await deployed.close();
    }
  });

  it('stays open in the embedded demo setup, and quiet about it', async () => {
    const demo = await startTestApp({ env: { LOG_LEVEL: 'warn' }, captureLogs: true });
    try {
      const response = await demo.rawHttp.get('/api/metrics');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(demo.logLines.filter((line) => line.includes('METRICS_TOKEN'))).toEqual([]);
    } finally {
      await demo.close();
    }
  });
});
