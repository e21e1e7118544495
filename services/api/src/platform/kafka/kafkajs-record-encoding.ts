/*
 * A cheaper encoding of kafkajs 2.2.4's records and record-batch CRC32C, byte for byte the same, for the republish's
 * producer threads (docs/adr/0131). kafkajs's own record encoder allocates a zeroed 512-byte buffer per record and per
 * header, and a Buffer per varint (about twenty allocations an event), and its CRC32C reads a byte per table lookup:
 * with its garbage that was most of a producer thread's CPU in the republish's profile (docs/benchmarks.md).
 *
 * kafkajs has had no release since 2023 (ADR 0117) and takes neither encoder as an option, so `installFastRecordEncoding`
 * puts these two functions in place of its modules in the thread's module cache before its produce request is loaded;
 * its request, batch and connection code stay its own. A record it would encode differently from the usual (a key,
 * value or header that is neither a string nor a Buffer, a timestamp delta past 31 bits) goes to kafkajs's own
 * encoder, kept aside, so every input gives the bytes kafkajs gives. Since ADR 0139 the same goes for kafkajs's
 * grouping of a send's messages by partition (`groupMessagesPerPartition`), and the record encoder also takes a
 * record pre-encoded by the republish's main thread (`RecordTail`).
 */
import { createRequire } from 'node:module';

/** The kafkajs release these modules were compared with; another one keeps kafkajs's own encoding. */
export const KAFKAJS_VERSION_ENCODED = '2.2.4';

const RECORD_MODULE = 'kafkajs/src/protocol/recordBatch/record/v0/index.js';
const CRC32C_MODULE = 'kafkajs/src/protocol/recordBatch/crc32C/index.js';
const GROUPING_MODULE = 'kafkajs/src/producer/groupMessagesPerPartition.js';

/** What kafkajs's `Record` gives and its `Encoder.writeEncoderArray` reads: a buffer and the bytes written. */
export interface EncodedRecord {
  buf: Buffer;
  buffer: Buffer;
}

export interface RecordInput {
  offsetDelta?: number;
  timestampDelta?: number | bigint | object;
  key?: unknown;
  value?: unknown;
  headers?: Record<string, unknown>;
}

type RecordEncoder = (record: RecordInput) => EncodedRecord;

/**
 * A record's bytes after its offset delta (key, value, header count and headers, as kafkajs's `Record` writes them),
 * written by the republish's main thread into the step it hands a producer thread (docs/adr/0139). A message whose
 * `value` is one of these is encoded by copying them behind the record's length, attributes and deltas.
 */
export class RecordTail {
  constructor(
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}
}

/** A zigzag varint as kafkajs writes it (32 bits at most) at `offset`: the value and the offset after it. */
export function readVarInt(buffer: Uint8Array, offset: number): { value: number; next: number } {
  let encoded = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = buffer[offset++];
    encoded |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  return { value: (encoded >>> 1) ^ -(encoded & 1), next: offset };
}

function readVarIntString(buffer: Buffer, offset: number): { value: string | null; next: number } {
  const { value: length, next } = readVarInt(buffer, offset);
  if (length < 0) return { value: null, next };
  return { value: buffer.toString('utf8', next, next + length), next: next + length };
}

/** The key, value and headers a tail holds, as strings (what kafkajs's own encoder is given where ours is not used). */
export function decodeRecordTail(tail: RecordTail): {
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
} {
  const key = readVarIntString(tail.bytes, tail.start);
  const value = readVarIntString(tail.bytes, key.next);
  let { value: count, next } = readVarInt(tail.bytes, value.next);
  const headers: Record<string, string> = {};
  while (count > 0) {
    const name = readVarIntString(tail.bytes, next);
    const headerValue = readVarIntString(tail.bytes, name.next);
    headers[name.value ?? ''] = headerValue.value ?? '';
    next = headerValue.next;
    count -= 1;
  }
  if (next !== tail.end) throw new Error(`Record tail of ${tail.end - tail.start} bytes read to ${next - tail.start}`);
  return { key: key.value, value: value.value, headers };
}

function isSmallDelta(delta: unknown): delta is number {
  return typeof delta === 'number' && Number.isInteger(delta) && delta >= -0x40000000 && delta < 0x40000000;
}

/** kafkajs's `Encoder.encodeZigZag`, then the unsigned varint's length (at most 5 bytes for 32 bits). */
export function sizeOfVarInt(value: number): number {
  let encoded = ((value << 1) ^ (value >> 31)) >>> 0;
  let bytes = 1;
  while (encoded >= 0x80) {
    bytes += 1;
    encoded >>>= 7;
  }
  return bytes;
}

export function writeVarInt(buffer: Buffer, offset: number, value: number): number {
  let encoded = ((value << 1) ^ (value >> 31)) >>> 0;
  while (encoded >= 0x80) {
    buffer[offset++] = (encoded & 0x7f) | 0x80;
    encoded >>>= 7;
  }
  buffer[offset++] = encoded;
  return offset;
}

/** A string or Buffer, the kinds this encoder writes the way kafkajs does; null and undefined are "no bytes". */
function isPlain(value: unknown): value is string | Buffer | null | undefined {
  return value == null || typeof value === 'string' || Buffer.isBuffer(value);
}

function byteLengthOf(value: string | Buffer): number {
  return typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
}

/** kafkajs's `writeVarIntBytes`: -1 for no bytes, else the length and the bytes. */
function sizeOfVarIntBytes(value: string | Buffer | null | undefined): number {
  if (value == null) return 1;
  const length = byteLengthOf(value);
  return sizeOfVarInt(length) + length;
}

function writeVarIntBytes(buffer: Buffer, offset: number, value: string | Buffer | null | undefined): number {
  if (value == null) return writeVarInt(buffer, offset, -1);
  if (typeof value === 'string') {
    const length = Buffer.byteLength(value, 'utf8');
    offset = writeVarInt(buffer, offset, length);
    return offset + buffer.write(value, offset, length, 'utf8');
  }
  offset = writeVarInt(buffer, offset, value.length);
  return offset + value.copy(buffer, offset);
}

/**
 * kafkajs's `Record` (v0), the same bytes: length, attributes, timestamp delta, offset delta, key, value, headers.
 * One exactly sized buffer instead of kafkajs's one per record, header and varint.
 */
export function fastRecordEncoder(original: RecordEncoder): RecordEncoder {
  return (record) => {
    const { offsetDelta = 0, timestampDelta = 0, key, value, headers = {} } = record;
    if (value instanceof RecordTail) {
      if (!isSmallDelta(timestampDelta) || !isSmallDelta(offsetDelta) || offsetDelta < 0)
        return original({ offsetDelta, timestampDelta, ...decodeRecordTail(value) });
      const tailSize = value.end - value.start;
      const size = 1 + sizeOfVarInt(timestampDelta) + sizeOfVarInt(offsetDelta) + tailSize;
      const buffer = Buffer.allocUnsafe(sizeOfVarInt(size) + size);
      let offset = writeVarInt(buffer, 0, size);
      buffer[offset++] = 0;
      offset = writeVarInt(buffer, offset, timestampDelta);
      offset = writeVarInt(buffer, offset, offsetDelta);
      value.bytes.copy(buffer, offset, value.start, value.end);
      return { buf: buffer, buffer };
    }
    if (
      typeof timestampDelta !== 'number' ||
      !Number.isInteger(timestampDelta) ||
      timestampDelta < -0x40000000 ||
      timestampDelta >= 0x40000000 ||
      !Number.isInteger(offsetDelta) ||
      offsetDelta < 0 ||
      offsetDelta >= 0x40000000 ||
      !isPlain(key) ||
      !isPlain(value) ||
      headers === null ||
      typeof headers !== 'object'
    )
      return original(record);
    let headerCount = 0;
    let headersSize = 0;
    for (const name in headers) {
      if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
      const entry = headers[name];
      const values = Array.isArray(entry) ? (entry as unknown[]) : [entry];
      for (const headerValue of values) {
        // kafkajs measures a header value with Buffer.byteLength, which throws on anything else: its own path then.
        if (typeof headerValue !== 'string' && !Buffer.isBuffer(headerValue)) return original(record);
        const nameLength = Buffer.byteLength(name, 'utf8');
        headersSize += sizeOfVarInt(nameLength) + nameLength + sizeOfVarIntBytes(headerValue);
        headerCount += 1;
      }
    }
    const bodySize =
      1 +
      sizeOfVarInt(timestampDelta) +
      sizeOfVarInt(offsetDelta) +
      sizeOfVarIntBytes(key) +
      sizeOfVarIntBytes(value) +
      sizeOfVarInt(headerCount) +
      headersSize;
    const buffer = Buffer.allocUnsafe(sizeOfVarInt(bodySize) + bodySize);
    let offset = writeVarInt(buffer, 0, bodySize);
    buffer[offset++] = 0;
    offset = writeVarInt(buffer, offset, timestampDelta);
    offset = writeVarInt(buffer, offset, offsetDelta);
    offset = writeVarIntBytes(buffer, offset, key);
    offset = writeVarIntBytes(buffer, offset, value);
    offset = writeVarInt(buffer, offset, headerCount);
    for (const name in headers) {
      if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
      const entry = headers[name];
      for (const headerValue of Array.isArray(entry) ? (entry as (string | Buffer)[]) : [entry as string | Buffer]) {
        offset = writeVarIntBytes(buffer, offset, name);
        offset = writeVarIntBytes(buffer, offset, headerValue);
      }
    }
    if (offset !== buffer.length) throw new Error(`Record encoded to ${offset} bytes, ${buffer.length} expected`);
    return { buf: buffer, buffer };
  };
}

/** CRC32C (Castagnoli, reflected 0x82f63b78), eight tables of 256 for eight bytes a step ("slicing by 8"). */
const CRC32C_TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    tables[byte] = crc;
  }
  for (let byte = 0; byte < 256; byte += 1)
    for (let table = 1; table < 8; table += 1) {
      const previous = tables[(table - 1) * 256 + byte];
      tables[table * 256 + byte] = (previous >>> 8) ^ tables[previous & 0xff];
    }
  return tables;
})();

/** kafkajs's `crc32C` module: the unsigned CRC32C of the buffer. */
export function crc32c(buffer: Uint8Array): number {
  const t = CRC32C_TABLES;
  let crc = -1;
  let index = 0;
  const length = buffer.length;
  const end8 = length - (length % 8);
  while (index < end8) {
    const low =
      crc ^ (buffer[index] | (buffer[index + 1] << 8) | (buffer[index + 2] << 16) | (buffer[index + 3] << 24));
    crc =
      t[1792 + (low & 0xff)] ^
      t[1536 + ((low >>> 8) & 0xff)] ^
      t[1280 + ((low >>> 16) & 0xff)] ^
      t[1024 + (low >>> 24)] ^
      t[768 + buffer[index + 4]] ^
      t[512 + buffer[index + 5]] ^
      t[256 + buffer[index + 6]] ^
      t[buffer[index + 7]];
    index += 8;
  }
  while (index < length) {
    crc = t[(crc ^ buffer[index]) & 0xff] ^ (crc >>> 8);
    index += 1;
  }
  return (crc ^ -1) >>> 0;
}

interface GroupingInput<M> {
  topic: string;
  partitionMetadata: readonly unknown[];
  messages: readonly M[];
  partitioner: (input: { topic: string; partitionMetadata: readonly unknown[]; message: M }) => number;
}

/**
 * kafkajs's `groupMessagesPerPartition`, the same object: each partition's messages in the order given. kafkajs's
 * copies the partition's whole list for every message (`[...current, message]`: about a hundred and fifty element
 * copies and a new array a message at a send's 2,000 over 6 partitions), and asks the partitioner even for a message
 * that names its partition, which kafkajs's partitioners then return as it is (docs/adr/0139).
 */
export function groupMessagesPerPartition<M extends { partition?: number | null }>({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: GroupingInput<M>): Record<string, M[]> {
  if (partitionMetadata.length === 0) return {};
  const result: Record<string, M[]> = {};
  for (const message of messages) {
    const partition = message.partition ?? partitioner({ topic, partitionMetadata, message });
    (result[partition] ??= []).push(message);
  }
  return result;
}

/**
 * Puts the two encoders and the grouping in place of kafkajs's modules in this thread's module cache, before kafkajs's
 * produce request and `sendMessages` (which take them when they load) are loaded: call it first thing in a thread of
 * its own. Returns false, and
 * changes nothing, where kafkajs is another release or its modules are elsewhere, or the request was loaded already.
 */
export function installFastRecordEncoding(): boolean {
  const requireHere = createRequire(__filename);
  let recordPath: string;
  let crcPath: string;
  let groupingPath: string;
  try {
    const version = (requireHere('kafkajs/package.json') as { version: string }).version;
    if (version !== KAFKAJS_VERSION_ENCODED) return false;
    recordPath = requireHere.resolve(RECORD_MODULE);
    crcPath = requireHere.resolve(CRC32C_MODULE);
    groupingPath = requireHere.resolve(GROUPING_MODULE);
  } catch {
    return false;
  }
  const produceRequest = recordPath.replace(/recordBatch\/record\/v0\/index\.js$/, 'requests/produce/v3/request.js');
  const sendMessages = groupingPath.replace(/groupMessagesPerPartition\.js$/, 'sendMessages.js');
  if (requireHere.cache[produceRequest] || requireHere.cache[sendMessages]) return false;
  const original = requireHere(recordPath) as RecordEncoder;
  requireHere(crcPath);
  requireHere(groupingPath);
  const recordModule = requireHere.cache[recordPath];
  const crcModule = requireHere.cache[crcPath];
  const groupingModule = requireHere.cache[groupingPath];
  if (!recordModule || !crcModule || !groupingModule) return false;
  recordModule.exports = fastRecordEncoder(original);
  crcModule.exports = crc32c;
  groupingModule.exports = groupMessagesPerPartition;
  return true;
}
