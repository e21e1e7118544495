import { EVENT_TYPES, type PaymentStatusChangedData, type PublishedEvent } from '@kupa/proto';
import type { RecordedEvent } from '../event-store/event-store.port';
import { eventSchemaFiles, eventSchemaValidator } from './event-schemas.fixtures';
import { KAFKA_HEADERS, streamCategory, toKafkaMessage, topicOf, toTopicMessages } from './published-event';

const statusChanged: RecordedEvent<PaymentStatusChangedData> = {
  eventId: '3f0c6a1e-8b2d-4c5e-9a7f-1d2e3c4b5a69',
  globalPosition: '4711',
  streamId: 'payment-42',
  streamVersion: 3,
  type: 'PaymentStatusChanged',
  data: {
    paymentId: 42,
    userUuid: '0b6c8f5e-4a59-4d5e-9a0e-2f1c7c9d1e11',
    previousStatus: 'PENDING',
    status: 'SUCCESS',
    changedAt: '2026-03-01T09:30:00.000Z',
    publicNote: null,
  },
  metadata: {
    actor: { id: 'USER-1c2d', email: 'staff@kupa.test', role: 'ADMIN', name: 'Dana Staff' },
    correlationId: '6c1b5c1e-0000-4000-8000-000000000001',
    causationId: null,
    occurredAt: '2026-03-01T09:30:00.000Z',
    ip: '203.0.113.7',
  },
  recordedAt: new Date('2026-03-01T09:30:00.012Z'),
  hash: 'ab'.repeat(32),
  schemaVersion: 2,
};

describe('published events', () => {
  it('names the topic by the stream category and keys the message by the stream id', () => {
    expect(streamCategory('wallet-0b6c8f5e-4a59-4d5e-9a0e-2f1c7c9d1e11')).toBe('wallet');
    expect(streamCategory('payment-42')).toBe('payment');
    expect(streamCategory('loner')).toBe('loner');
    expect(topicOf('kupa.', 'subscription-1f2e')).toBe('kupa.subscription');
    expect(topicOf('', 'odd category!-1')).toBe('odd_category_');
    const message = toKafkaMessage(statusChanged);
    expect(message.key).toBe('payment-42');
    expect(message.headers).toEqual({
      [KAFKA_HEADERS.eventId]: '3f0c6a1e-8b2d-4c5e-9a7f-1d2e3c4b5a69',
      [KAFKA_HEADERS.eventType]: 'PaymentStatusChanged',
      [KAFKA_HEADERS.schemaVersion]: '2',
      [KAFKA_HEADERS.streamVersion]: '3',
      [KAFKA_HEADERS.correlationId]: '6c1b5c1e-0000-4000-8000-000000000001',
      [KAFKA_HEADERS.contentType]: 'application/json',
    });
  });

  it('sends the envelope with the actor’s id and role only, never a name, e-mail address or IP address', () => {
    const value = JSON.parse(toKafkaMessage(statusChanged).value) as PublishedEvent<'PaymentStatusChanged'>;
    expect(value).toEqual({
      id: '3f0c6a1e-8b2d-4c5e-9a7f-1d2e3c4b5a69',
      type: 'PaymentStatusChanged',
      schemaVersion: 2,
      streamId: 'payment-42',
      streamVersion: 3,
      occurredAt: '2026-03-01T09:30:00.000Z',
      recordedAt: '2026-03-01T09:30:00.012Z',
      correlationId: '6c1b5c1e-0000-4000-8000-000000000001',
      causationId: null,
      actor: { id: 'USER-1c2d', role: 'ADMIN' },
      data: statusChanged.data,
    });
    expect(JSON.stringify(value)).not.toMatch(/staff@kupa\.test|Dana|203\.0\.113\.7/);
  });

  it('groups a batch by topic, keeping the batch’s order within each topic', () => {
    const events = ['wallet-a', 'payment-1', 'wallet-b', 'wallet-a', 'payment-1'].map((streamId, index) => ({
      ...statusChanged,
      streamId,
      eventId: String(index + 1),
    }));
    expect(
      toTopicMessages('kupa.', events).map(({ topic, messages }) => [
        topic,
        messages.map((message) => message.headers[KAFKA_HEADERS.eventId]),
      ]),
    ).toEqual([
      ['kupa.wallet', ['1', '3', '4']],
      ['kupa.payment', ['2', '5']],
    ]);
  });

  it('has a committed JSON Schema for exactly the event types of the catalogue, which a published event meets', () => {
    expect(eventSchemaFiles()).toEqual(EVENT_TYPES.map((type) => `${type}.json`).sort());
    const check = eventSchemaValidator();
    const value = JSON.parse(toKafkaMessage(statusChanged).value) as Record<string, unknown>;
    expect(check('PaymentStatusChanged', value)).toBeNull();
    // The schema is strict: the wrong type, a missing or an unknown field, a status outside the enum all fail.
    expect(check('PaymentRecorded', value)).toMatch(/type/);
    expect(check('PaymentStatusChanged', { ...value, actor: { id: 'USER-1c2d' } })).toMatch(/role/);
    expect(check('PaymentStatusChanged', { ...value, data: { ...statusChanged.data, extra: 1 } })).toMatch(
      /additional properties/,
    );
    expect(check('PaymentStatusChanged', { ...value, data: { ...statusChanged.data, status: 'LOST' } })).toMatch(
      /allowed values/,
    );
    expect(check('PaymentStatusChanged', { ...value, recordedAt: 'yesterday' })).toMatch(/date-time/);
    // The id is a UUID (ADR 0061), never a position that a restored backup would hand out again.
    expect(check('PaymentStatusChanged', { ...value, id: '4711' })).toMatch(/uuid/);
  });
});
