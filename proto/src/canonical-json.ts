/**
 * Canonical JSON in the style of RFC 8785 (JSON Canonicalization Scheme): object members sorted by the UTF-16 code
 * units of their names at every depth, no whitespace, numbers in ECMAScript's shortest round-trip form (`-0` is `0`),
 * strings escaped as `JSON.stringify` escapes them. The same value therefore always has the same text, whatever
 * order its keys were written in or however PostgreSQL's jsonb reorders them, which is what hashes need: the event
 * store's hash chain and the request hash of an `Idempotency-Key`.
 *
 * Values that are not plain JSON follow `JSON.stringify`, because stored hashes were made that way: `toJSON` is
 * honoured (a `Date` becomes its ISO text), `undefined` members are left out of objects and become `null` in arrays.
 * What JSON cannot represent faithfully is refused with a `TypeError` instead of being turned into `null` or
 * dropped: non-finite numbers, BigInts, functions, symbols, and strings with unpaired surrogates (RFC 8785 works on
 * I-JSON, which forbids them, and PostgreSQL's jsonb refuses them too).
 */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, 'the value');
  if (text === undefined) throw new TypeError('A top-level value that JSON cannot represent has no canonical form');
  return text;
}

const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

function serialiseString(value: string, where: string): string {
  if (UNPAIRED_SURROGATE.test(value)) throw new TypeError(`${where} holds an unpaired UTF-16 surrogate`);
  return JSON.stringify(value);
}

function serialise(input: unknown, where: string): string | undefined {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return serialiseString(value, where);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${where} is ${String(value)}, which JSON cannot represent`);
      // ECMAScript's Number-to-String is the shortest text that reads back as the same double; RFC 8785 adopts it.
      // JSON.stringify applies it and also writes -0 as 0.
      return JSON.stringify(value);
    case 'undefined':
      return undefined;
    case 'bigint':
      throw new TypeError(`${where} is a BigInt; store money as a decimal string or a safe integer`);
    case 'function':
    case 'symbol':
      throw new TypeError(`${where} is a ${typeof value}, which has no JSON form`);
    default:
      break;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item, index) => serialise(item, `${where}[${index}]`) ?? 'null').join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  // The default sort compares UTF-16 code units, which is the order RFC 8785 prescribes.
  for (const key of Object.keys(record).sort()) {
    const member = serialise(record[key], `${where}.${key}`);
    if (member !== undefined) members.push(`${serialiseString(key, `${where} (a key)`)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
