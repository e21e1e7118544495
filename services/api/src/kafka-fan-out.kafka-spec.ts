import { randomUUID } from 'node:crypto';
import type { Plan } from '@kupa/proto';
import { KAFKA_HEADERS, KAFKA_PUBLISHER_NAME, streamCategory } from './platform/kafka';
import { eventSchemaValidator } from './platform/kafka/event-schemas.fixtures';
import { readAllMessages, testBrokers, uniqueTopicPrefix, waitFor } from './platform/kafka/kafka.fixtures';
import { adminToken, createActiveUser } from './test-support/identity-fixtures';
import { kupa } from './test-support/kupa-cli';
import { manualPayment, transfer } from './test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from './test-support/test-app';

/**
 * The whole server with `KAFKA_BROKERS` set, against a real broker: what requests cause reaches Kafka, every value
 * meets the committed JSON Schema of its type (docs/events/), and equals the event the store holds.
 */
describe('Kafka fan-out of a running server', () => {
  let testApp: TestApp;
  const prefix = uniqueTopicPrefix();

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { KAFKA_BROKERS: testBrokers().join(','), KAFKA_CLIENT_ID: 'kupa-spec', KAFKA_TOPIC_PREFIX: prefix },
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('publishes what sign-ups, payments, a transfer, a package and a purchase append, each meeting its schema', async () => {
    const admin = await adminToken(testApp);
    const [buyer, friend] = [await createActiveUser(testApp), await createActiveUser(testApp)];
    await manualPayment(testApp, admin, buyer.userUuid, 50, 'for the fan-out');
    await transfer(testApp, buyer.accessToken, friend.email, 5);
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Fan-out ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      });
    expect(plan.status).toBe(201);
    const purchase = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${(plan.body as Plan).id}`)
      .set('Authorization', `Bearer ${buyer.accessToken}`)
      .send({ login: `fanout.${randomUUID().slice(0, 8)}`, password: 'pass-1234' });
    expect(purchase.status).toBe(201);
    // The built-in streaming simulator provisions the account in the background, and the subscription activates.
    const events = await waitFor(
      () =>
        testApp.dataSource.query<{ id: string; position: string; type: string; data: unknown }[]>(
          `SELECT e.event_id::text AS id, c.commit_position::text AS position, e.type, e.data
             FROM events e JOIN event_commits c ON e.global_position BETWEEN c.first_position AND c.last_position
              AND e.transaction_id = c.transaction_id ORDER BY c.commit_position, e.global_position`,
        ),
      (rows) => rows.some((row) => row.type === 'SubscriptionActivated'),
      'the subscription to activate',
      120_000,
    );
    const last = events[events.length - 1].position;
    await waitFor(
      async () =>
        (
          await testApp.dataSource.query<{ position: string }[]>(
            'SELECT commit_position::text AS position FROM checkpoints WHERE name = $1',
            [KAFKA_PUBLISHER_NAME],
          )
        )[0]?.position,
      (position) => position !== undefined && BigInt(position) >= BigInt(last),
      'the publisher to pass the last event',
      120_000,
    );

    const messages = await readAllMessages(prefix, events.length);
    const published = new Map(messages.map((message) => [message.value.id as string, message]));
    const check = eventSchemaValidator();
    for (const event of events) {
      const message = published.get(event.id);
      expect({ id: event.id, type: event.type, published: message !== undefined }).toEqual({
        id: event.id,
        type: event.type,
        published: true,
      });
      if (!message) continue;
      expect({ type: event.type, problems: check(event.type, message.value) }).toEqual({
        type: event.type,
        problems: null,
      });
      expect(message.value.data).toEqual(event.data);
      expect(message.topic).toBe(`${prefix}${streamCategory(message.key)}`);
      expect(message.headers[KAFKA_HEADERS.eventType]).toBe(event.type);
      expect(message.headers[KAFKA_HEADERS.eventId]).toBe(event.id);
    }
    expect(new Set(messages.map((message) => message.topic.slice(prefix.length)))).toEqual(
      new Set(['user', 'wallet', 'payment', 'plan', 'subscription']),
    );
    expect([...new Set(messages.map((message) => message.value.type))]).toEqual(
      expect.arrayContaining([
        'UserRegistered',
        'UserEmailConfirmed',
        'ManualDepositRecorded',
        'PaymentRecorded',
        'TransferSent',
        'TransferReceived',
        'PaymentPlanCreated',
        'SubscriptionPurchased',
        'SubscriptionCharged',
        'SubscriptionActivated',
      ]),
    );
  });

  it('kupa events republish replays what the live topics hold to another prefix, and refuses the live one', async () => {
    const live = await kupa(testApp, 'events', 'republish', '--topic-prefix', prefix);
    expect(live.code).toBe(2);
    expect(live.output).toContain("is the live publisher's (KAFKA_TOPIC_PREFIX)");

    const replayPrefix = uniqueTopicPrefix();
    const published = async () =>
      BigInt(
        (
          await testApp.dataSource.query<{ position: string }[]>(
            'SELECT commit_position::text AS position FROM checkpoints WHERE name = $1',
            [KAFKA_PUBLISHER_NAME],
          )
        )[0].position,
      );
    const before = await published();
    const { code, output } = await kupa(testApp, 'events', 'republish', '--topic-prefix', replayPrefix, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(output) as { outcome: string; sentNow: number; run: { toPosition: string } };
    // The end is the live publisher's checkpoint when the command started (it may have moved on since).
    const end = BigInt(result.run.toPosition);
    expect(end >= before && end <= (await published())).toBe(true);
    const [{ count }] = await testApp.dataSource.query<{ count: number }[]>(
      'SELECT coalesce(sum(event_count), 0)::int AS count FROM event_commits WHERE commit_position <= $1',
      [result.run.toPosition],
    );
    expect(result).toMatchObject({ outcome: 'done', sentNow: count });
    const replayed = await readAllMessages(replayPrefix, count);
    expect(replayed).toHaveLength(count);
    expect(replayed.every((message) => message.headers[KAFKA_HEADERS.replay] === replayPrefix)).toBe(true);
    const check = eventSchemaValidator();
    for (const message of replayed)
      expect({ type: message.value.type, problems: check(String(message.value.type), message.value) }).toEqual({
        type: message.value.type,
        problems: null,
      });
  });
});
