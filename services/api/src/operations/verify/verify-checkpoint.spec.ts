import {
  balancesDigest,
  type CheckpointHeader,
  checkpointHash,
  headsDigest,
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

  it('judges only from the newest FULL checkpoint: a full verify re-proved what came before', () => {
    const headers = chain(['FULL', 'SINCE', 'FULL', 'SINCE']);
    headers[1] = { ...headers[1], eventsVerified: 7 };
    expect(verifyCheckpointChain(headers)).toEqual({ latest: headers[3], problems: [] });
  });
});
