import { republishArguments } from '../../cli.commands';
import type { CommittedEvent } from '../event-store/event-store.port';
import { republishSends } from './kafka-republisher';
import { KAFKA_HEADERS } from './published-event';

function event(streamId: string, streamVersion: number, note: string): CommittedEvent {
  return {
    eventId: `00000000-0000-4000-8000-${String(streamVersion).padStart(12, '0')}`,
    globalPosition: String(streamVersion),
    commitPosition: String(streamVersion),
    streamId,
    streamVersion,
    type: 'TallyCounted',
    data: { note },
    metadata: {
      actor: { id: 'SYSTEM', email: null, role: 'SYSTEM', name: 'SYSTEM' },
      correlationId: 'c',
      causationId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
      ip: null,
    },
    recordedAt: new Date('2026-01-01T00:00:00.000Z'),
    hash: 'h',
    schemaVersion: 1,
  };
}

describe('republishSends', () => {
  it('cuts a step into consecutive sends under the byte limit, each per topic in the step’s order, marked as a replay', () => {
    const events = Array.from({ length: 30 }, (_, index) =>
      event(index % 2 === 0 ? 'wallet-a' : 'payment-b', index + 1, 'x'.repeat(200)),
    );
    const sends = [...republishSends('replay.', events, 3_000)];
    expect(sends.length).toBeGreaterThan(1);
    const sent = sends.flatMap((send) => send.flatMap(({ topic, messages }) => messages.map((m) => ({ topic, m }))));
    expect(sent).toHaveLength(30);
    for (const send of sends) {
      const bytes = send
        .flatMap(({ messages }) => messages)
        .reduce((sum, message) => sum + message.key.length + message.value.length, 0);
      expect(bytes).toBeLessThanOrEqual(3_000);
    }
    // Per topic, in the step's order: one stream's versions only ever go up, send after send.
    const walletVersions = sent
      .filter(({ topic }) => topic === 'replay.wallet')
      .map(({ m }) => Number(m.headers[KAFKA_HEADERS.streamVersion]));
    expect(walletVersions).toEqual([...walletVersions].sort((a, b) => a - b));
    expect(walletVersions).toHaveLength(15);
    expect(sent.every(({ m }) => m.headers[KAFKA_HEADERS.replay] === 'replay.')).toBe(true);
  });

  it('sends a message larger than the limit alone', () => {
    const sends = [
      ...republishSends('r.', [event('wallet-a', 1, 'x'.repeat(5_000)), event('wallet-a', 2, 'y')], 1_000),
    ];
    expect(sends.map((send) => send.flatMap(({ messages }) => messages).length)).toEqual([1, 1]);
  });
});

describe('republishArguments', () => {
  it('needs a topic prefix, and takes whole numbers for the end and the batch size', () => {
    expect(republishArguments({ 'topic-prefix': 'replay.' })).toEqual({ topicPrefix: 'replay.' });
    expect(republishArguments({ 'topic-prefix': 'r-1.', 'to-position': '1200', 'batch-size': '500' })).toEqual({
      topicPrefix: 'r-1.',
      toPosition: '1200',
      batchSize: 500,
    });
    for (const wrong of [
      {},
      { 'topic-prefix': '' },
      { 'topic-prefix': 'a/b' },
      { 'topic-prefix': 'r.', 'to-position': '-1' },
      { 'topic-prefix': 'r.', 'to-position': '1e3' },
      { 'topic-prefix': 'r.', 'batch-size': 'many' },
    ])
      expect(republishArguments(wrong)).toHaveProperty('usage');
  });
});
