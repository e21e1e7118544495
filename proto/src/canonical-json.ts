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
    if (error instanceof Refusal) throw new TypeError(error.describe());
    throw error;
  }
  if (text === undefined) throw new TypeError('A top-level value that JSON cannot represent has no canonical form');
  return text;
}

/**
 * A value canonical JSON refuses. The walk builds no path as it goes, since every stored event is hashed with it and
 * almost none is refused; each level the refusal passes on its way out adds its step instead.
 */
class Refusal {
  /** The steps from the refused value up to the top, innermost first: `.name`, `[2]`. */
  readonly steps: string[] = [];

  constructor(private readonly reason: string) {}

  describe(): string {
    return `the value${[...this.steps].reverse().join('')} ${this.reason}`;
  }
}

/** Adds `step` to a refusal passing through; anything else goes on unchanged. */
function passedThrough(error: unknown, step: string): unknown {
  if (error instanceof Refusal) error.steps.push(step);
  return error;
}

const UNPAIRED_SURROGATE = /\p{Surrogate}/u;
/**
 * What JSON.stringify escapes in a string (a quote, a backslash, a control character) and any surrogate, paired or
 * not: a string without any of them is written as it is between quotes, and most text holds none.
 */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON must escape.
const NEEDS_CARE = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/** A string as JSON.stringify writes it; `what` words a refusal (the string itself, or a key). */
function quote(value: string, what: 'holds' | '(a key) holds'): string {
  if (!NEEDS_CARE.test(value)) return `"${value}"`;
  if (UNPAIRED_SURROGATE.test(value)) throw new Refusal(`${what} an unpaired UTF-16 surrogate`);
  return JSON.stringify(value);
}

function write(input: unknown): string | undefined {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value, 'holds');
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Refusal(`is ${String(value)}, which JSON cannot represent`);
      // ECMAScript's Number-to-String is the shortest text that reads back as the same double; RFC 8785 adopts it,
      // and so does JSON.stringify. It also writes -0 as 0.
      return String(value);
    case 'undefined':
      return undefined;
    case 'bigint':
      throw new Refusal('is a BigInt; store money as a decimal string or a safe integer');
    case 'function':
    case 'symbol':
      throw new Refusal(`is a ${typeof value}, which has no JSON form`);
    default:
      break;
  }
  if (Array.isArray(value)) {
    let text = '[';
    let index = 0;
    try {
      for (; index < value.length; index += 1) {
        if (index > 0) text += ',';
        text += write(value[index]) ?? 'null';
      }
    } catch (error) {
      throw passedThrough(error, `[${index}]`);
    }
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  // The default sort compares UTF-16 code units, which is the order RFC 8785 prescribes.
  for (const key of Object.keys(record).sort()) {
    let member: string | undefined;
    try {
      member = write(record[key]);
    } catch (error) {
      throw passedThrough(error, `.${key}`);
    }
    if (member === undefined) continue;
    text += (first ? '' : ',') + quote(key, '(a key) holds') + ':' + member;
    first = false;
  }
  return text + '}';
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
