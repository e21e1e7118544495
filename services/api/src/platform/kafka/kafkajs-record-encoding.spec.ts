import { randomBytes } from 'node:crypto';
import {
  crc32c,
  fastRecordEncoder,
  groupMessagesPerPartition,
  type EncodedRecord,
  type RecordInput,
} from './kafkajs-record-encoding';

// kafkajs's own modules, the encoders these must match byte for byte.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: RecordInput) => EncodedRecord;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkajsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;

const fastRecord = fastRecordEncoder(kafkajsRecord);

/** The bytes in hex (quicker to compare than a Buffer's elements), or the error it threw. */
function encodedBy(encode: (record: RecordInput) => EncodedRecord, record: RecordInput): string {
  try {
    return encode(record).buffer.toString('hex');
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

function randomText(length: number): string {
  const pieces = ['a', 'Z', '0', ' ', '"', '\\', '\n', 'é', 'ü', '€', '😀', '\u0000', '\u07ff', '\uffff'];
  return Array.from({ length }, (_, index) => pieces[(index * 7 + length) % pieces.length]).join('');
}

describe('the republish producers’ record encoding (kafkajs 2.2.4’s, cheaper)', () => {
  it('encodes a record to the bytes kafkajs’s Record does, for the messages the republish sends and others', () => {
    const records: RecordInput[] = [
      {
        offsetDelta: 0,
        timestampDelta: 0,
        key: 'wallet-0f3c',
        value: JSON.stringify({ id: 'e', data: { amountMinor: 12_345, note: 'x'.repeat(120) } }),
        headers: { 'event-id': 'e', 'event-type': 'PaymentRecorded', 'schema-version': '1', replay: 'replay.' },
      },
      { key: null, value: null },
      { key: undefined, value: 'v', headers: {} },
      { key: Buffer.from([0, 1, 255]), value: randomBytes(300), headers: { b: Buffer.from('bytes') } },
      { key: 'k', value: 'v', headers: { many: ['one', 'two', Buffer.from('three')], '': '' } },
      { offsetDelta: 1_999, timestampDelta: -5, key: 'k', value: 'x'.repeat(20_000) },
      { offsetDelta: 63, timestampDelta: 64, key: 'k', value: 'v' },
      { offsetDelta: 8_191, timestampDelta: 0x3fffffff, key: 'k', value: 'v' },
      // What the fast path leaves to kafkajs: it must then give kafkajs's bytes, or its error.
      { timestampDelta: 2 ** 40, key: 'k', value: 'v' },
      { timestampDelta: 2 ** 31, key: 'k', value: 'v' },
      { timestampDelta: 2 ** 35 + 3, key: 'k', value: 'v' },
      { offsetDelta: 2 ** 31 + 1, key: 'k', value: 'v' },
      { timestampDelta: -(2 ** 33), key: 'k', value: 'v' },
      { key: 12 as unknown as string, value: 'v' },
      { key: 'k', value: 'v', headers: { n: null } },
      { key: 'k', value: 'v', headers: { n: 5 } },
      { key: 'k', value: 'v', headers: null as unknown as Record<string, unknown> },
    ];
    for (let index = 0; index < 300; index += 1)
      records.push({
        offsetDelta: index * 37,
        timestampDelta: index % 3 === 0 ? 0 : index * 1_000_003 - 150_000_000,
        key: randomText(index % 70),
        value: index % 11 === 0 ? null : randomText(index * 13),
        headers: Object.fromEntries(
          Array.from({ length: index % 9 }, (_, header) => [randomText(header + 1), randomText(index % 40)]),
        ),
      });
    for (const record of records) expect(encodedBy(fastRecord, record)).toEqual(encodedBy(kafkajsRecord, record));
  });

  it('takes the CRC32C kafkajs’s record batch does', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    for (let length = 0; length < 600; length += 1) {
      const buffer = randomBytes(length);
      expect(crc32c(buffer)).toBe(kafkajsCrc32c(buffer));
    }
    const large = randomBytes(1_000_003);
    expect(crc32c(large)).toBe(kafkajsCrc32c(large));
  });
});

describe('the republish producers’ grouping of a send by partition (kafkajs 2.2.4’s, linear)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kafkajsGrouping = require('kafkajs/src/producer/groupMessagesPerPartition') as typeof groupMessagesPerPartition;

  it('gives the object kafkajs’s does: each partition’s messages in the order given, named or partitioned', () => {
    const partitionMetadata = Array.from({ length: 6 }, (_, partitionId) => ({ partitionId, leader: 1 }));
    // A partitioner as kafkajs's: a named partition as it is, else one from the key.
    const partitioner = ({ message }: { message: { partition?: number | null; key: string } }) =>
      message.partition ?? message.key.length % 6;
    const messages = Array.from({ length: 500 }, (_, index) => ({
      key: 'k'.repeat(index % 13),
      partition: index % 5 === 0 ? undefined : index % 4 === 0 ? null : (index * 7) % 6,
      index,
    }));
    const ours = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    const theirs = kafkajsGrouping({ topic: 't', partitionMetadata, messages, partitioner });
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(ours).toEqual(theirs);
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});
  });
});
