import { fastRecordEncoder, type EncodedRecord, type RecordInput } from './kafkajs-record-encoding';
import type { KafkaMessage, TopicMessages } from './published-event';
import { decodeSends, encodeSends, type PreEncodedMessage } from './republish-handover';

// kafkajs's own record encoder: what a pre-encoded message must come out as, byte for byte.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: RecordInput) => EncodedRecord;
const fastRecord = fastRecordEncoder(kafkajsRecord);

function text(length: number, seed: number): string {
  const pieces = ['a', 'Z', '0', ' ', '"', '\\', '\n', 'é', 'ü', '€', '😀', '\u0000', '\u07ff', '\uffff', '\ud800'];
  return Array.from({ length }, (_, index) => pieces[(index * 7 + seed) % pieces.length]).join('');
}

function message(index: number): KafkaMessage {
  const ascii = index % 2 === 0;
  // Lengths around the varint's steps (63/64 and 8,191/8,192 bytes) and the short-string cut (48 characters).
  const lengths = [0, 1, 21, 22, 47, 48, 49, 63, 64, 65, 2_730, 2_731, 8_191, 8_192, 20_000];
  const length = lengths[index % lengths.length];
  return {
    key: ascii ? `wallet-${index}` : text(index % 50, index),
    value: ascii ? 'x'.repeat(length) : text(length, index),
    headers: Object.fromEntries(
      Array.from({ length: index % 9 }, (_, header) => [
        ascii ? `h-${header}` : text(header + 1, index),
        ascii ? String(index) : text(lengths[(index + header) % 10], header),
      ]),
    ),
    partition: index % 7,
  };
}

describe('the republish’s hand-over of a step to a producer thread', () => {
  const sends: TopicMessages[][] = [
    [
      { topic: 'replay.wallet', messages: Array.from({ length: 90 }, (_, index) => message(index)) },
      { topic: 'replay.caf\u00e9', messages: [message(91), message(92)] },
      // More headers than a one-byte count holds.
      {
        topic: 'replay.many',
        messages: [
          {
            ...message(93),
            headers: Object.fromEntries(Array.from({ length: 70 }, (_, index) => [`h${index}`, text(index, index)])),
          },
        ],
      },
    ],
    [{ topic: 'replay.wallet', messages: Array.from({ length: 40 }, (_, index) => message(100 + index)) }],
  ];

  it('gives kafkajs’s record bytes for every message, whatever its offset and timestamp deltas', () => {
    const decoded = decodeSends(encodeSends(sends), false);
    expect(decoded.map((send) => send.map(({ topic, messages }) => [topic, messages.length]))).toEqual(
      sends.map((send) => send.map(({ topic, messages }) => [topic, messages.length])),
    );
    const deltas = [
      [0, 0],
      [1_999, 0],
      [63, 64],
      [8_191, -5],
      // Past what the fast path writes: the tail is decoded and left to kafkajs.
      [2 ** 31 + 1, 0],
      [0, 2 ** 40],
    ];
    sends.forEach((send, sendIndex) =>
      send.forEach(({ messages }, topicIndex) =>
        messages.forEach((original, index) => {
          const preEncoded = decoded[sendIndex][topicIndex].messages[index] as PreEncodedMessage;
          expect(preEncoded.partition).toBe(original.partition);
          const [offsetDelta, timestampDelta] = deltas[index % deltas.length];
          // As kafkajs's produce request calls it: the message spread, then the deltas.
          const ours = fastRecord({ ...preEncoded, offsetDelta, timestampDelta } as RecordInput);
          const theirs = kafkajsRecord({ ...original, offsetDelta, timestampDelta });
          expect(ours.buffer.toString('hex')).toBe(theirs.buffer.toString('hex'));
        }),
      ),
    );
  });

  it('gives the messages back as strings where kafkajs encodes them itself', () => {
    const decoded = decodeSends(encodeSends(sends), true);
    // A lone surrogate goes out as U+FFFD, as kafkajs's UTF-8 encoding would send it.
    const sent = (value: string) => Buffer.from(value, 'utf8').toString('utf8');
    expect(decoded).toEqual(
      sends.map((send) =>
        send.map(({ topic, messages }) => ({
          topic,
          messages: messages.map(({ key, value, headers, partition }) => ({
            key: sent(key),
            value: sent(value),
            headers: Object.fromEntries(Object.entries(headers).map(([name, entry]) => [sent(name), sent(entry)])),
            partition,
          })),
        })),
      ),
    );
  });

  it('refuses a message without a partition', () => {
    expect(() => encodeSends([[{ topic: 't', messages: [{ key: 'k', value: 'v', headers: {} }] }]])).toThrow(
      'A message to t has no partition',
    );
  });
});
