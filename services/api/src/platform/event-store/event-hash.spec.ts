import { canonicalJson } from '@kupa/proto';
import { createHash } from 'node:crypto';
import { chainHash, GENESIS_HASH } from './event-hash';

describe('canonicalJson', () => {
  it('Given objects whose keys were written in different orders, when serialised, then the texts are equal', () => {
    const first = canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } });
    const second = canonicalJson({ a: { c: 'x', d: [1, { y: null, z: true }] }, b: 1 });
    expect(first).toBe(second);
    expect(first).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
  });

  it('Given undefined members and dates, when serialised, then they follow JSON.stringify', () => {
    const text = canonicalJson({
      gone: undefined,
      list: [undefined, 2],
      when: new Date('2026-01-02T03:04:05.000Z'),
    });
    expect(text).toBe('{"list":[null,2],"when":"2026-01-02T03:04:05.000Z"}');
    expect(JSON.parse(text)).toEqual(
      JSON.parse(JSON.stringify({ list: [undefined, 2], when: new Date('2026-01-02T03:04:05.000Z') })),
    );
  });

  it('Given a non-finite number, when serialised, then it is refused rather than hashed as null', () => {
    // jsonb would store null, so a NaN in an event would be silently lost; refusing it surfaces the bug at append.
    expect(() => canonicalJson({ list: [Number.NaN] })).toThrow(TypeError);
    expect(() => canonicalJson({ amount: Number.POSITIVE_INFINITY })).toThrow(TypeError);
  });

  it('Given strings that need escaping, when serialised, then they round-trip through JSON.parse', () => {
    const value = { 'quote"key': 'line\nbreak \\ "quoted" \u2028 שלום' };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it('Given a BigInt, when serialised, then it is refused', () => {
    expect(() => canonicalJson({ amount: 10n })).toThrow(TypeError);
  });
});

describe('chainHash', () => {
  const event = {
    streamId: 'wallet-1',
    streamVersion: 1,
    type: 'Deposited',
    data: { amountMinor: 1250 },
    metadata: { actor: 'a' },
  };

  it('Given the first event of a stream, when hashed, then it is sha256 of the canonical event after an empty predecessor', () => {
    const expected = createHash('sha256')
      .update(
        GENESIS_HASH +
          '{"data":{"amountMinor":1250},"metadata":{"actor":"a"},"streamId":"wallet-1","streamVersion":1,"type":"Deposited"}',
      )
      .digest('hex');
    expect(chainHash(null, event)).toBe(expected);
  });

  it('Given a fixed test vector, when hashed, then the value never changes between releases', () => {
    expect(chainHash(null, event)).toBe('f7836ee65440de58f78b635f58a9b403d3426da8a4dc21a73cab42c84fd3e03c');
    expect(chainHash(null, event)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('Given the same event after different predecessors, when hashed, then the hashes differ', () => {
    expect(chainHash('aa', event)).not.toBe(chainHash('bb', event));
  });

  it('Given an event whose data was edited, when hashed, then the hash differs', () => {
    expect(chainHash(null, { ...event, data: { amountMinor: 1251 } })).not.toBe(chainHash(null, event));
  });

  it('Given the same event with keys in another order, when hashed, then the hash is the same', () => {
    const reordered = {
      metadata: { actor: 'a' },
      type: 'Deposited',
      data: { amountMinor: 1250 },
      streamVersion: 1,
      streamId: 'wallet-1',
    };
    expect(chainHash(null, reordered)).toBe(chainHash(null, event));
  });
});
