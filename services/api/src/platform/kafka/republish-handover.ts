/*
 * How the republish's main thread hands a step to a producer thread (docs/adr/0139): one ArrayBuffer per producer and
 * step, transferred (not cloned), holding each send's topics and, per message, its partition and the bytes kafkajs's
 * `Record` writes after the offset delta (key, value, headers). The producer thread gives kafkajs one small object a
 * message whose `value` is a `RecordTail` over that buffer; its record encoder (kafkajs-record-encoding.ts) copies the
 * bytes. Before, every message went over as a structured clone of its strings and headers object, which both threads
 * paid for, and the producer encoded each string again as UTF-8.
 *
 * Layout, little-endian 32-bit counts and lengths: the bytes used (the buffer is sized by a guess), the sends, then
 * per send its topics, per topic its name (a varint length and UTF-8) and its messages, per message its partition,
 * its tail's length and the tail.
 */
import * as recordEncoding from './kafkajs-record-encoding';
import { decodeRecordTail, readVarInt, RecordTail } from './kafkajs-record-encoding';
import type { KafkaMessage, TopicMessages } from './published-event';

// Taken once: called for every string of every message, not through the module's bindings each time.
const { sizeOfVarInt, writeVarInt } = recordEncoding;

/** Strings up to this long are written a character at a time while ASCII: shorter than a call into `Buffer.write`. */
const SHORT_STRING = 48;
/** The first guess of a step's bytes per message; the buffer doubles when a message would not fit. */
const BYTES_PER_MESSAGE_GUESS = 1_024;

/** `Buffer#utf8Write(text, offset)`: `write` without its argument parsing (Node's own Buffers have it). */
type Utf8Writer = Buffer & { utf8Write?: (text: string, offset: number) => number };

class StepWriter {
  arrayBuffer: ArrayBuffer;
  buffer: Buffer;
  offset = 0;

  constructor(capacity: number) {
    this.arrayBuffer = new ArrayBuffer(capacity);
    this.buffer = Buffer.from(this.arrayBuffer);
  }

  /** Room for `bytes` more, the buffer doubled (and what it holds copied) as often as needed. */
  reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < this.offset + bytes) capacity *= 2;
    const arrayBuffer = new ArrayBuffer(capacity);
    const buffer = Buffer.from(arrayBuffer);
    this.buffer.copy(buffer, 0, 0, this.offset);
    this.arrayBuffer = arrayBuffer;
    this.buffer = buffer;
  }

  uint32(value: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(value, this.offset);
    this.offset += 4;
  }

  /** kafkajs's `writeVarIntBytes` of a string: its UTF-8 length as a zigzag varint, then the bytes. */
  varIntString(text: string): void {
    // At most three bytes per UTF-16 unit, and a varint of five.
    this.reserve(5 + text.length * 3);
    const { buffer } = this;
    const offset = this.offset;
    // The length's varint goes first; its size is guessed from the most bytes the text can take, and the bytes moved
    // back where the text took fewer than that guess's varint allows.
    const guess = sizeOfVarInt(text.length * 3);
    const start = offset + guess;
    let length = -1;
    if (text.length <= SHORT_STRING) {
      length = text.length;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (code >= 0x80) {
          length = -1;
          break;
        }
        buffer[start + index] = code;
      }
    }
    if (length < 0) {
      const { utf8Write } = buffer as Utf8Writer;
      length = utf8Write ? utf8Write.call(buffer, text, start) : buffer.write(text, start, 'utf8');
    }
    const actual = sizeOfVarInt(length);
    if (actual !== guess) buffer.copyWithin(offset + actual, start, start + length);
    this.offset = writeVarInt(buffer, offset, length) + length;
  }
}

/** One producer's sends of a step as one buffer to transfer; each message must have its `partition`. */
export function encodeSends(sends: readonly TopicMessages[][]): ArrayBuffer {
  let messageCount = 0;
  for (const send of sends) for (const { messages } of send) messageCount += messages.length;
  const writer = new StepWriter(64 + messageCount * BYTES_PER_MESSAGE_GUESS);
  // The bytes used, first: the buffer is sized by a guess and goes over whole (a transfer copies nothing).
  writer.offset += 4;
  writer.uint32(sends.length);
  for (const send of sends) {
    writer.uint32(send.length);
    for (const { topic, messages } of send) {
      writer.varIntString(topic);
      writer.uint32(messages.length);
      for (const message of messages) {
        if (message.partition === undefined) throw new Error(`A message to ${topic} has no partition`);
        writer.uint32(message.partition);
        const lengthAt = writer.offset;
        writer.offset += 4;
        writer.varIntString(message.key);
        writer.varIntString(message.value);
        // The header count's varint goes before the headers: one byte kept for it, moved in the rare case of more.
        writer.reserve(1);
        const countAt = writer.offset;
        writer.offset += 1;
        let count = 0;
        const { headers } = message;
        // Own properties in for…in order: the order and the headers kafkajs's encoder writes.
        for (const name in headers) {
          if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
          writer.varIntString(name);
          writer.varIntString(headers[name]);
          count += 1;
        }
        const countSize = sizeOfVarInt(count);
        if (countSize > 1) {
          writer.reserve(countSize - 1);
          writer.buffer.copyWithin(countAt + countSize, countAt + 1, writer.offset);
          writer.offset += countSize - 1;
        }
        writeVarInt(writer.buffer, countAt, count);
        writer.buffer.writeUInt32LE(writer.offset - lengthAt - 4, lengthAt);
      }
    }
  }
  writer.buffer.writeUInt32LE(writer.offset, 0);
  return writer.arrayBuffer;
}

/** A message as a producer thread gives it to kafkajs: the partition picked, the record's bytes in `value`. */
export interface PreEncodedMessage {
  partition: number;
  value: RecordTail;
}

/**
 * The sends of a buffer `encodeSends` made. `plain` gives each message back as strings (a kafkajs whose record encoder
 * is not ours would not know a `RecordTail`); otherwise each message's value is its `RecordTail`.
 */
export function decodeSends(
  arrayBuffer: ArrayBuffer,
  plain: boolean,
): { topic: string; messages: (PreEncodedMessage | KafkaMessage)[] }[][] {
  const whole = Buffer.from(arrayBuffer);
  const buffer = whole.subarray(0, whole.readUInt32LE(0));
  let offset = 4;
  const uint32 = () => {
    const value = buffer.readUInt32LE(offset);
    offset += 4;
    return value;
  };
  const sends = Array.from({ length: uint32() }, () => {
    const topics = uint32();
    const send: { topic: string; messages: (PreEncodedMessage | KafkaMessage)[] }[] = [];
    for (let index = 0; index < topics; index += 1) {
      const { value: nameLength, next } = readVarInt(buffer, offset);
      const topic = buffer.toString('utf8', next, next + nameLength);
      offset = next + nameLength;
      const count = uint32();
      const messages: (PreEncodedMessage | KafkaMessage)[] = new Array(count);
      for (let message = 0; message < count; message += 1) {
        const partition = uint32();
        const length = uint32();
        const tail = new RecordTail(buffer, offset, offset + length);
        offset += length;
        if (!plain) messages[message] = { partition, value: tail };
        else {
          const { key, value, headers } = decodeRecordTail(tail);
          messages[message] = { key: key ?? '', value: value ?? '', headers, partition };
        }
      }
      send.push({ topic, messages });
    }
    return send;
  });
  if (offset !== buffer.length) throw new Error(`Step of ${buffer.length} bytes read to ${offset}`);
  return sends;
}
