/**
 * Java's producer's murmur2 (`org.apache.kafka.common.utils.Utils.murmur2`) of a key's UTF-8 bytes, in 32-bit
 * integer arithmetic: the hash kafkajs's `DefaultPartitioner` computes with its 64-bit `Long` emulation, a tenth of
 * the republish's main thread in its profile (docs/benchmarks.md), to the same value.
 */
let scratch = new Uint8Array(256);

export function murmur2(key: string): number {
  let bytes: Uint8Array = scratch;
  let length = key.length;
  if (length > bytes.length) bytes = scratch = new Uint8Array(length * 2);
  for (let index = 0; index < length; index += 1) {
    const code = key.charCodeAt(index);
    if (code >= 0x80) {
      // Not ASCII: the UTF-8 bytes, which differ from the character codes.
      bytes = Buffer.from(key, 'utf8');
      length = bytes.length;
      break;
    }
    // An ASCII key's UTF-8 bytes are its character codes: no Buffer made for it.
    bytes[index] = code;
  }
  const m = 0x5bd1e995;
  let h = 0x9747b28c ^ length;
  const length4 = length >>> 2;
  for (let block = 0; block < length4; block += 1) {
    const index = block * 4;
    let k = bytes[index] | (bytes[index + 1] << 8) | (bytes[index + 2] << 16) | (bytes[index + 3] << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const tail = length & ~3;
  const rest = length & 3;
  if (rest === 3) h ^= bytes[tail + 2] << 16;
  if (rest >= 2) h ^= bytes[tail + 1] << 8;
  if (rest >= 1) {
    h ^= bytes[tail];
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Java's default partitioner for a keyed message: murmur2 made positive, modulo the topic's partition count. */
export function javaPartition(key: string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
