import { createHash } from 'node:crypto';

/**
 * Canonical JSON: the JSON.stringify form of a value with object keys sorted (by UTF-16 code units, as
 * `Array.prototype.sort` does) at every depth. The hash chain depends on it, so that the same event always hashes
 * the same way no matter in which order its keys were written or how PostgreSQL's jsonb reorders them on read.
 * Values follow JSON.stringify: `toJSON` is honoured, `undefined` and functions vanish from objects and become
 * `null` in arrays, non-finite numbers become `null`. BigInts are refused, as JSON.stringify refuses them.
 */
export function canonicalJson(value: unknown): string {
  const text = serialise(value);
  if (text === undefined) throw new TypeError('A top-level value that JSON cannot represent has no canonical form');
  return text;
}

function serialise(input: unknown): string | undefined {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('BigInt values have no JSON form; store money as a decimal string or a safe integer');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map((item) => serialise(item) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = serialise(record[key]);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** The fields of an event that its hash covers: everything a reader could act on, but not where it was stored. */
export interface HashedEventFields {
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata: unknown;
}

/** The hash of the first event of a stream is chained to this empty predecessor. */
export const GENESIS_HASH = '';

/**
 * One link of a stream's hash chain: sha256 (hex) of the previous event's hash followed by the canonical JSON of
 * this event. Editing any stored event changes its hash and therefore breaks every later link of its stream.
 */
export function chainHash(previousHash: string | null, event: HashedEventFields): string {
  const body = canonicalJson({
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
  return createHash('sha256')
    .update(previousHash ?? GENESIS_HASH)
    .update(body)
    .digest('hex');
}
