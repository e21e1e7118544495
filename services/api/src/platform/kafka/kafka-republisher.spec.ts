import { republishArguments } from '../../cli.commands';
import type { CommittedEvent } from '../event-store/event-store.port';
import { loadJavaPartitioner } from './kafka-event-publisher';
import { KAFKA_HEADERS, topicOf, toKafkaMessage } from './published-event';
import { cutIntoSends, PartitionAssignment } from './republish-producers';

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

/** The step's messages as the republish makes them: topic, replay header, and Java's partition of the key. */
async function messagesOf(events: readonly CommittedEvent[], partitions: number) {
  const partitionOf = await loadJavaPartitioner();
  return events.map((e) => {
    const topic = topicOf('replay.', e.streamId);
    const message = toKafkaMessage(e, { [KAFKA_HEADERS.replay]: 'replay.' });
    return { topic, message: { ...message, partition: partitionOf(topic, message.key, partitions) } };
  });
}

describe('cutIntoSends', () => {
  it('cuts a step into consecutive sends under the byte limit, each per topic in the step’s order', async () => {
    const events = Array.from({ length: 30 }, (_, index) =>
      event(index % 2 === 0 ? 'wallet-a' : 'payment-b', index + 1, 'x'.repeat(200)),
    );
    const sends = [...cutIntoSends(await messagesOf(events, 6), 3_000)];
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

  it('sends a message larger than the limit alone', async () => {
    const messages = await messagesOf([event('wallet-a', 1, 'x'.repeat(5_000)), event('wallet-a', 2, 'y')], 6);
    const sends = [...cutIntoSends(messages, 1_000)];
    expect(sends.map((send) => send.flatMap(({ messages: list }) => list).length)).toEqual([1, 1]);
  });
});

describe('the partitions of a republish', () => {
  it('are Java’s murmur2 of the key, the partition kafkajs’s default partitioner picks', async () => {
    const { Partitioners } = await import('kafkajs');
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionOf = await loadJavaPartitioner();
    // Every length's tail (0 to 3 bytes past a block of 4), and keys whose UTF-8 bytes are not their characters.
    const keys = (index: number, partitions: number) => [
      `wallet-${index}-${partitions}`,
      'k'.repeat(index % 41),
      `wallet-é${'ü'.repeat(index % 5)}-${index}`,
      `${String.fromCodePoint(0x1f600 + (index % 50))}-${index}-\u0080\u07ff\uffff`,
      `${'z'.repeat(300 + index)}`,
    ];
    for (const partitions of [1, 3, 6, 7])
      for (let index = 0; index < 200; index += 1)
        for (const key of keys(index, partitions)) {
          const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
            partitionErrorCode: 0,
            partitionId,
            leader: 1,
            replicas: [1],
            isr: [1],
          }));
          expect(partitionOf('t', key, partitions)).toBe(
            partitioner({ topic: 't', partitionMetadata, message: { key, value: null } }),
          );
        }
  });

  it('go each to one producer for the whole run, dealt in turn so that each has about as many', () => {
    const assignment = new PartitionAssignment(2);
    assignment.add('r.wallet', 3);
    assignment.add('r.payment', 3);
    assignment.add('r.wallet', 5); // known already: unchanged
    const dealt = ['r.wallet', 'r.payment'].flatMap((topic) =>
      [0, 1, 2].map((partition) => assignment.producerOf(topic, partition)),
    );
    expect(dealt).toEqual([0, 1, 0, 1, 0, 1]);
    expect(() => assignment.producerOf('r.user', 0)).toThrow('No producer has topic r.user');
    const three = new PartitionAssignment(3);
    three.add('a', 6);
    three.add('b', 6);
    const counts = [0, 0, 0];
    for (const topic of ['a', 'b'])
      for (let partition = 0; partition < 6; partition += 1) counts[three.producerOf(topic, partition)] += 1;
    expect(counts).toEqual([4, 4, 4]);
  });
});

describe('republishArguments', () => {
  it('needs a topic prefix, and takes whole numbers for the end and the batch size', () => {
    expect(republishArguments({ 'topic-prefix': 'replay.' })).toEqual({ topicPrefix: 'replay.' });
    expect(
      republishArguments({ 'topic-prefix': 'r-1.', 'to-position': '1200', 'batch-size': '500', producers: '3' }),
    ).toEqual({ topicPrefix: 'r-1.', toPosition: '1200', batchSize: 500, producers: 3 });
    for (const wrong of [
      {},
      { 'topic-prefix': '' },
      { 'topic-prefix': 'a/b' },
      { 'topic-prefix': 'r.', 'to-position': '-1' },
      { 'topic-prefix': 'r.', 'to-position': '1e3' },
      { 'topic-prefix': 'r.', 'batch-size': 'many' },
      { 'topic-prefix': 'r.', producers: '0' },
      { 'topic-prefix': 'r.', producers: '9' },
    ])
      expect(republishArguments(wrong)).toHaveProperty('usage');
  });
});
