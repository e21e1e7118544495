import { eventually } from './platform/event-store/event-store.fixtures';
import { KAFKA_PUBLISHER_NAME } from './platform/kafka';
import { ProcessorRunner } from './platform/projections';
import { adminToken, createActiveUser } from './test-support/identity-fixtures';
import { manualPayment } from './test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from './test-support/test-app';

/**
 * The Kafka fan-out where no broker is needed (the specs against a real one are `*.kafka-spec.ts`,
 * `npm run test:kafka`): switched off, it does not exist; pointed at a broker that cannot be reached, it waits
 * without disturbing anything else.
 */
describe('Kafka fan-out without a broker', () => {
  describe('KAFKA_BROKERS unset', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp();
    });

    afterAll(async () => {
      await testApp?.close();
    });

    it('registers no publisher, while the other processors run', async () => {
      expect(testApp.config.kafka).toBeNull();
      await createActiveUser(testApp);
      const runner = testApp.app.get(ProcessorRunner);
      // The sign-up's mail went out, so the processors ran; the publisher has neither a checkpoint nor a name.
      expect(await runner.checkpoint('identity-mails')).not.toBeNull();
      expect(await runner.checkpoint(KAFKA_PUBLISHER_NAME)).toBeNull();
      expect(runner.processorNames()).not.toContain(KAFKA_PUBLISHER_NAME);
    });
  });

  describe('a broker that cannot be reached', () => {
    const METRICS_TOKEN = 'scrape-token-for-the-kafka-spec';
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp({
        env: {
          // Nothing listens on port 1 of the loopback address: every connection is refused at once.
          KAFKA_BROKERS: '127.0.0.1:1',
          METRICS_TOKEN,
          PROCESSOR_LAG_ALERT_EVENTS: '2',
        },
      });
    });

    afterAll(async () => {
      await testApp?.close();
    });

    it('keeps serving and ready while the publisher waits at its checkpoint, its lag shown in the metrics', async () => {
      const client = await createActiveUser(testApp);
      await manualPayment(testApp, await adminToken(testApp), client.userUuid, 5, 'while Kafka is away');
      const runner = testApp.app.get(ProcessorRunner);
      expect(runner.processorNames()).toContain(KAFKA_PUBLISHER_NAME);
      // The mails went out and every other processor caught up; the publisher has not moved off the start.
      await eventually(
        () => testApp.rawHttp.get('/api/health/ready'),
        (response) => response.status === 200,
        'ready with every other processor caught up',
      );
      expect(await runner.checkpoint(KAFKA_PUBLISHER_NAME)).toEqual({ commitPosition: '0' });
      const events: { count: number }[] = await testApp.dataSource.query('SELECT count(*)::int AS count FROM events');
      const scrape = await testApp.rawHttp.get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
      expect(scrape.text).toContain(
        `kupa_processor_lag_events{processor="${KAFKA_PUBLISHER_NAME}"} ${events[0].count}`,
      );
      // Behind its alert threshold: an alert for the operator, while readiness stays 200 (ADR 0063).
      expect(scrape.text).toContain(`kupa_processor_behind{processor="${KAFKA_PUBLISHER_NAME}"} 1`);
    });
  });
});
