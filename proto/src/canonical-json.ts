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
  let text: string | undefined;
  try {
    text = write(value);
  } catch (error) {
    if (error !== REFUSED) throw error;
    // The fast writer only knows that something is refused; the slow one walks again to say where and why.
    serialise(value, 'the value');
    throw new Error('canonicalJson: a value the fast writer refused passed the slow one');
  }
  if (text === undefined) throw new TypeError('A top-level value that JSON cannot represent has no canonical form');
  return text;
}

const UNPAIRED_SURROGATE = /\p{Surrogate}/u;
/**
 * What JSON.stringify escapes in a string (a quote, a backslash, a control character) and any surrogate, paired or
 * not: a string without any of them is written as it is between quotes, and most text holds none.
 */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON must escape.
const NEEDS_CARE = /["\\\u0000-\u001f\uD800-\uDFFF]/;

function quote(value: string): string {
  if (!NEEDS_CARE.test(value)) return `"${value}"`;
  if (UNPAIRED_SURROGATE.test(value)) throw REFUSED;
  return JSON.stringify(value);
}

/** Thrown by `write` for a value it refuses; `canonicalJson` then finds its path and the precise reason. */
const REFUSED = Symbol('refused');

/**
 * The hot path, which hashes every stored event when the chains are verified: the same rules as `serialise`,
 * without building a path for every member it passes, and with the text appended in place rather than joined.
 */
function write(input: unknown): string | undefined {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw REFUSED;
      // String() is ECMAScript's Number-to-String, as JSON.stringify's, and writes -0 as 0 too.
      return String(value);
    case 'undefined':
      return undefined;
    case 'object':
      break;
    default:
      throw REFUSED;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      text += write(value[index]) ?? 'null';
    }
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const member = write(record[key]);
    if (member === undefined) continue;
    text += (text.length === 1 ? '' : ',') + quote(key) + ':' + member;
  }
  return text + '}';
}

function serialiseString(value: string, where: string): string {
  if (UNPAIRED_SURROGATE.test(value)) throw new TypeError(`${where} holds an unpaired UTF-16 surrogate`);
  return JSON.stringify(value);
}

/** The slow path, taken only to explain a refusal: the same rules, with the path of every member it passes. */
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
