import { parseLsn, PrimaryPositions } from './replica-lag';
import { isReplicaTrouble } from './read-replica';

describe('replica lag', () => {
  it('reads a WAL position as one 64-bit number, ordered as PostgreSQL orders them', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('16-B374D848')).toThrow('Not a WAL position');
  });

  it('is the age of the oldest primary position the replica has not replayed up to', () => {
    const positions = new PrimaryPositions(60_000);
    positions.add({ atMs: 1_000, lsn: 100n });
    positions.add({ atMs: 2_000, lsn: 200n });
    positions.add({ atMs: 3_000, lsn: 300n });
    expect(positions.lagSeconds(300n, 3_500)).toBe(0);
    expect(positions.lagSeconds(250n, 3_500)).toBe(0.5);
    expect(positions.lagSeconds(150n, 3_500)).toBe(1.5);
    expect(positions.lagSeconds(50n, 3_500)).toBe(2.5);
  });

  it('does not count an idle primary as lag: the same position for a long time is replayed at once', () => {
    const positions = new PrimaryPositions(60_000);
    for (let atMs = 0; atMs <= 30_000; atMs += 1_000) positions.add({ atMs, lsn: 500n });
    positions.add({ atMs: 31_000, lsn: 600n });
    // One write after a long idle spell, not replayed yet: about one check old, not thirty seconds.
    expect(positions.lagSeconds(500n, 31_200)).toBeCloseTo(0.2);
  });

  it('keeps the samples of its window only, and past them reports at least the oldest kept one', () => {
    const positions = new PrimaryPositions(5_000);
    for (let atMs = 0; atMs <= 20_000; atMs += 1_000) positions.add({ atMs, lsn: BigInt(atMs) });
    expect(positions.lagSeconds(-1n, 20_000)).toBe(5);
  });
});

describe('isReplicaTrouble', () => {
  it('takes lost connections, a standby going away, recovery conflicts and an unreplayed schema as the replica failing', () => {
    for (const code of ['08006', '57P01', '57P03', '40001', '53300', '42P01', '42703', 'ECONNREFUSED'])
      expect(isReplicaTrouble(Object.assign(new Error(code), { code }))).toBe(true);
    expect(isReplicaTrouble(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leaves errors of the read itself alone', () => {
    for (const code of ['22023', '22P02', '23505'])
      expect(isReplicaTrouble(Object.assign(new Error(code), { code }))).toBe(false);
    expect(isReplicaTrouble(new Error('a bug'))).toBe(false);
    expect(isReplicaTrouble(undefined)).toBe(false);
  });
});
