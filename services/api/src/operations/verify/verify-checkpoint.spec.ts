import fc from 'fast-check';
import { createHash } from 'node:crypto';
import {
  balancesDigest,
  bucketBalancesDigest,
  bucketBalancesDigests,
  bucketCountFor,
  bucketHeadsDigest,
  bucketHeadsDigests,
  bucketOf,
  type CheckpointHeader,
  checkpointHash,
  digestOfBuckets,
  headsDigest,
  MIN_BUCKET_COUNT,
  verifyCheckpointChain,
} from './verify-checkpoint';

function chain(kinds: Array<CheckpointHeader['kind']>): CheckpointHeader[] {
  const headers: CheckpointHeader[] = [];
  kinds.forEach((kind, index) => {
    const fields = {
      kind,
      commitPosition: String((index + 1) * 100),
      createdAt: `2026-11-${String(index + 1).padStart(2, '0')}T03:00:00.000Z`,
      eventsVerified: 100,
      bucketCount: 256,
      balancesDigest: balancesDigest({ 'user:a': index, 'cash:x': -index }),
      headsDigest: headsDigest(new Map([['wallet-a', { version: index + 1, hash: `h${index}` }]])),
      previousHash: headers[index - 1]?.hash ?? null,
    };
    headers.push({ checkpointId: index + 1, ...fields, hash: checkpointHash(fields) });
  });
  return headers;
}

describe('verify checkpoints (ADR 0111)', () => {
  it('digests balances whatever order the accounts come in, and leaves zero balances out', () => {
    expect(balancesDigest({ 'user:a': 5, 'cash:x': -5 })).toBe(balancesDigest({ 'cash:x': -5, 'user:a': 5 }));
    expect(balancesDigest({ 'user:a': 5, 'cash:x': -5, 'user:b': 0 })).toBe(
      balancesDigest({ 'user:a': 5, 'cash:x': -5 }),
    );
    expect(balancesDigest({ 'user:a': 5, 'cash:x': -5 })).not.toBe(balancesDigest({ 'user:a': 6, 'cash:x': -6 }));
  });

  it('digests stream heads by stream, version and hash', () => {
    const heads = new Map([
      ['wallet-b', { version: 2, hash: 'b2' }],
      ['wallet-a', { version: 1, hash: 'a1' }],
    ]);
    const reordered = new Map([...heads.entries()].reverse());
    expect(headsDigest(heads)).toBe(headsDigest(reordered));
    expect(headsDigest(heads)).not.toBe(headsDigest(new Map([...heads, ['wallet-a', { version: 1, hash: 'a0' }]])));
    expect(headsDigest(heads)).not.toBe(headsDigest(new Map([...heads, ['wallet-a', { version: 3, hash: 'a1' }]])));
  });

  it('answers the newest checkpoint when the chain from the newest FULL one holds', () => {
    const headers = chain(['FULL', 'SINCE', 'SINCE']);
    expect(verifyCheckpointChain(headers)).toEqual({ latest: headers[2], problems: [] });
  });

  it('answers none, without a problem, when no FULL checkpoint exists', () => {
    expect(verifyCheckpointChain([])).toEqual({ latest: null, problems: [] });
  });

  it('refuses a checkpoint whose fields were edited after it was written', () => {
    const headers = chain(['FULL', 'SINCE', 'SINCE']);
    headers[1] = { ...headers[1], balancesDigest: balancesDigest({ 'user:a': 1_000_000, 'cash:x': -1_000_000 }) };
    expect(verifyCheckpointChain(headers)).toEqual({
      latest: null,
      problems: ['checkpoint 2: its fields do not match its hash'],
    });
  });

  it('refuses a checkpoint rewritten whole with a fresh hash: the next one no longer chains to it', () => {
    const headers = chain(['FULL', 'SINCE', 'SINCE']);
    const { checkpointId, hash, ...fields } = headers[1];
    const forged = { ...fields, eventsVerified: 1 };
    headers[1] = { checkpointId, ...forged, hash: checkpointHash(forged) };
    expect(hash).not.toBe(headers[1].hash);
    expect(verifyCheckpointChain(headers).problems).toEqual(['checkpoint 3: does not chain to checkpoint 2']);
  });

  it('refuses a checkpoint that stands before the one it follows', () => {
    const headers = chain(['FULL', 'SINCE']);
    const fields = { ...headers[1], commitPosition: '50' };
    headers[1] = { ...fields, hash: checkpointHash(fields) };
    expect(verifyCheckpointChain(headers).problems).toEqual(['checkpoint 2: stands before checkpoint 1']);
  });

  it('refuses a SINCE checkpoint that changed the bucket count it continued (ADR 0122)', () => {
    const headers = chain(['FULL', 'SINCE']);
    const fields = { ...headers[1], bucketCount: 512 };
    headers[1] = { ...fields, hash: checkpointHash(fields) };
    expect(verifyCheckpointChain(headers).problems).toEqual([
      'checkpoint 2: does not keep the bucket count of checkpoint 1',
    ]);
  });

  it('judges only from the newest FULL checkpoint: a full verify re-proved what came before', () => {
    const headers = chain(['FULL', 'SINCE', 'FULL', 'SINCE']);
    headers[1] = { ...headers[1], eventsVerified: 7 };
    expect(verifyCheckpointChain(headers)).toEqual({ latest: headers[3], problems: [] });
  });
});

describe('checkpoint buckets (ADR 0122)', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const key = fc.string({ minLength: 1, maxLength: 24 }).filter((text) => !/[\t\n]/.test(text));
  const head = fc.record({
    version: fc.integer({ min: 1, max: 1000 }),
    hash: fc.string({ maxLength: 8 }).filter((text) => !/[\t\n]/.test(text)),
  });
  const bucketCount = fc.constantFrom(1, 2, 256, 1024);

  it('chooses a power of two of at least 256 buckets, about eight rows to a bucket', () => {
    expect(bucketCountFor(0)).toBe(MIN_BUCKET_COUNT);
    expect(bucketCountFor(2048)).toBe(256);
    expect(bucketCountFor(2049)).toBe(512);
    expect(bucketCountFor(1_005_402)).toBe(131_072);
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), (rows) => {
        const count = bucketCountFor(rows);
        expect(Number.isInteger(Math.log2(count))).toBe(true);
        expect(count).toBeGreaterThanOrEqual(MIN_BUCKET_COUNT);
        expect(count * 8).toBeGreaterThanOrEqual(rows);
        if (count > MIN_BUCKET_COUNT) expect(count * 4).toBeLessThan(rows);
      }),
    );
  });

  it('files a key by the first four bytes of its sha256, the same every time', () => {
    expect(bucketOf('wallet-a', 256)).toBe(createHash('sha256').update('wallet-a').digest().readUInt32BE(0) % 256);
    fc.assert(
      fc.property(key, bucketCount, (text, count) => {
        const bucket = bucketOf(text, count);
        expect(bucket).toBe(bucketOf(text, count));
        expect(bucket).toBeGreaterThanOrEqual(0);
        expect(bucket).toBeLessThan(count);
        // A bucket count that doubles splits each bucket in two: the low bits stay.
        expect(bucketOf(text, count * 2) % count).toBe(bucket);
      }),
    );
  });

  it('digests a bucket as sha256 of its sorted lines, the format of ADR 0111, zero balances left out', () => {
    expect(
      bucketHeadsDigest([
        ['b', { version: 2, hash: 'h2' }],
        ['a', { version: 1, hash: 'h1' }],
      ]),
    ).toBe(sha256('a\t1\th1\nb\t2\th2\n'));
    expect(
      bucketBalancesDigest([
        ['user:b', 0],
        ['user:a', -5],
        ['cash:x', 5],
      ]),
    ).toBe(sha256('cash:x\t5\nuser:a\t-5\n'));
    expect(bucketHeadsDigest([])).toBe(sha256(''));
    expect(digestOfBuckets(['x', 'y'])).toBe(sha256('x\ny\n'));
  });

  it('gives the header digest over the buckets whatever order the rows come in, and moves it with any row', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, head), { selector: ([streamId]) => streamId, maxLength: 40 }),
        fc.dictionary(key, fc.integer({ min: -1000, max: 1000 })),
        bucketCount,
        (headRows, balances, count) => {
          const heads = new Map(headRows);
          const reversed = new Map([...headRows].reverse());
          expect(headsDigest(reversed, count)).toBe(headsDigest(heads, count));
          expect(digestOfBuckets(bucketHeadsDigests(heads, count))).toBe(headsDigest(heads, count));
          expect(balancesDigest(balances, count)).toBe(digestOfBuckets(bucketBalancesDigests(balances, count)));
          const zeroAdded = { ...balances, 'never-moved': 0 };
          expect(balancesDigest(zeroAdded, count)).toBe(balancesDigest(balances, count));
          if (headRows.length > 0) {
            const [streamId, { version, hash }] = headRows[0];
            const moved = new Map([...heads, [streamId, { version: version + 1, hash }]]);
            const digests = bucketHeadsDigests(heads, count);
            const movedDigests = bucketHeadsDigests(moved, count);
            // Only the moved row's bucket changes: the others keep their digests, as a SINCE checkpoint relies on.
            const changed = digests.flatMap((digest, bucket) => (digest === movedDigests[bucket] ? [] : [bucket]));
            expect(changed).toEqual([bucketOf(streamId, count)]);
            expect(headsDigest(moved, count)).not.toBe(headsDigest(heads, count));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
