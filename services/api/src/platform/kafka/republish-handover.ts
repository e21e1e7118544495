/*
 * How the republish's main thread hands a step to a producer thread (docs/adr/0139): one ArrayBuffer per producer and
 * step, transferred (not cloned), holding each send's topics and, per message, its partition and the bytes kafkajs's
 * `Record` writes after the offset delta (key, value, headers). The producer thread gives kafkajs one small object a
 * message whose `value` is a `RecordTail` over that buffer; its record encoder (kafkajs-record-encoding.ts) copies the
 * bytes. Before, every message went over as a structured clone of its strings and headers object, which both threads
 * paid for, and the producer encoded each string again as UTF-8.
 *
 * Layout, little-endian 32-bit counts and lengths: the bytes used (the buffer is sized for the worst case), the sends, then per send its topics, per topic its name's length and
 * UTF-8 bytes and its messages, per message its partition, its tail's length and the tail.
 */
import { decodeRecordTail, RecordTail, sizeOfVarInt, writeVarInt } from './kafkajs-record-encoding';
import type { KafkaMessage, TopicMessages } from './published-event';

/** Strings up to this long are written a character at a time while ASCII: shorter than a call into `Buffer.write`. */
const SHORT_STRING = 48;

class StepWriter {
  readonly buffer: Buffer;
  offset = 0;

  constructor(readonly arrayBuffer: ArrayBuffer) {
    this.buffer = Buffer.from(arrayBuffer);
  }

  uint32(value: number): void {
    this.buffer.writeUInt32LE(value, this.offset);
    this.offset += 4;
  }

  /** kafkajs's `writeVarIntBytes` of a string: its UTF-8 length as a zigzag varint, then the bytes. */
  varIntString(text: string): void {
    const { buffer } = this;
    const offset = this.offset;
    // The length's varint goes first; its size is guessed from the most bytes the text can take, and the bytes moved
    // back in the rare case the text is shorter than that guess's varint allows.
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
    if (length < 0) length = buffer.write(text, start, 'utf8');
    const actual = sizeOfVarInt(length);
    if (actual !== guess) buffer.copyWithin(offset + actual, start, start + length);
    this.offset = writeVarInt(buffer, offset, length) + length;
  }
}

/** The most bytes a string takes as a varint length and UTF-8 (three bytes per UTF-16 unit at most). */
function stringBound(text: string): number {
  return 5 + text.length * 3;
}

/** One producer's sends of a step as one buffer to transfer; each message must have its `partition`. */
export function encodeSends(sends: readonly TopicMessages[][]): ArrayBuffer {
  let bound = 8;
  for (const send of sends) {
    bound += 4;
    for (const { topic, messages } of send) {
      bound += 8 + stringBound(topic);
      for (const message of messages) {
        bound += 8 + 5 + stringBound(message.key) + stringBound(message.value);
        const { headers } = message;
        for (const name in headers) bound += stringBound(name) + stringBound(headers[name]);
      }
    }
  }
  const writer = new StepWriter(new ArrayBuffer(bound));
  // The bytes used, first: the buffer is sized for the worst case and goes over whole (a transfer copies nothing).
  writer.offset += 4;
  writer.uint32(sends.length);
  for (const send of sends) {
    writer.uint32(send.length);
    for (const { topic, messages } of send) {
      const nameAt = writer.offset;
      writer.offset += 4;
      const nameLength = writer.buffer.write(topic, writer.offset, 'utf8');
      writer.buffer.writeUInt32LE(nameLength, nameAt);
      writer.offset += nameLength;
      writer.uint32(messages.length);
      for (const message of messages) {
        if (message.partition === undefined) throw new Error(`A message to ${topic} has no partition`);
        writer.uint32(message.partition);
        const lengthAt = writer.offset;
        writer.offset += 4;
        writer.varIntString(message.key);
        writer.varIntString(message.value);
        const { headers } = message;
        let count = 0;
        // Own properties in for…in order: the order and the headers kafkajs's encoder writes.
        for (const name in headers) if (Object.prototype.hasOwnProperty.call(headers, name)) count += 1;
        writer.offset = writeVarInt(writer.buffer, writer.offset, count);
        for (const name in headers) {
          if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
          writer.varIntString(name);
          writer.varIntString(headers[name]);
        }
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
      const nameLength = uint32();
      const topic = buffer.toString('utf8', offset, offset + nameLength);
      offset += nameLength;
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
