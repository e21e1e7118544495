import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { platformMigrations } from '../database/migrations';
import { ManualClock } from '../clock';
import { type RateLimitCount, RateLimitWindows, RateLimitWindowsSweep } from './rate-limit-windows';

const MINUTE_MS = 60_000;

describe('RateLimitWindows on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSources: DataSource[];
  let windows: RateLimitWindows;
  let nowMs = Date.parse('2026-03-01T10:00:00Z');
  const shortRule = (key: string): RateLimitCount => ({ key, limit: 2, windowMs: MINUTE_MS });
  const longRule = (key: string): RateLimitCount => ({ key, limit: 2, windowMs: 60 * MINUTE_MS });
  const countOf = async (key: string) => (await windows.countAndRead([], [key], nowMs)).get(key)?.count ?? 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two pools, as two API processes have: counts made through one are seen through the other.
    dataSources = [0, 1].map(
      () => new DataSource({ type: 'postgres', url: database.url, migrations: platformMigrations, extra: { max: 10 } }),
    );
    for (const dataSource of dataSources) await dataSource.initialize();
    await dataSources[0].runMigrations();
    windows = new RateLimitWindows(dataSources[0]);
  });

  afterAll(async () => {
    for (const dataSource of dataSources) await dataSource.destroy();
    await database.drop();
  });

  it('counts within a window and starts a fresh window once it ended', async () => {
    expect((await windows.countAndRead([shortRule('a')], [], nowMs)).get('a')).toEqual({
      key: 'a',
      count: 1,
      expiresAtMs: nowMs + MINUTE_MS,
    });
    nowMs += 10_000;
    expect((await windows.countAndRead([shortRule('a')], [], nowMs)).get('a')?.count).toBe(2);
    nowMs += 50_000;
    expect((await windows.countAndRead([shortRule('a')], [], nowMs)).get('a')).toEqual({
      key: 'a',
      count: 1,
      expiresAtMs: nowMs + MINUTE_MS,
    });
  });

  it('reads keys without counting them, and only their live windows', async () => {
    await windows.countAndRead([shortRule('read')], [], nowMs);
    const read = await windows.countAndRead([shortRule('other')], ['read', 'never-counted'], nowMs);
    expect(read.get('read')?.count).toBe(1);
    expect(read.has('never-counted')).toBe(false);
    expect(await countOf('read')).toBe(1);
    nowMs += MINUTE_MS;
    expect((await windows.countAndRead([], ['read'], nowMs)).has('read')).toBe(false);
  });

  it('gives a place back, but not to a window that started afresh meanwhile', async () => {
    const first = (await windows.countAndRead([shortRule('k')], [], nowMs)).get('k');
    const second = (await windows.countAndRead([shortRule('k')], [], nowMs)).get('k');
    if (!first || !second) throw new Error('both were counted');
    await windows.giveBack([second]);
    expect(await countOf('k')).toBe(1);

    nowMs += MINUTE_MS;
    await windows.countAndRead([shortRule('k')], [], nowMs);
    await windows.giveBack([first]);
    expect(await countOf('k')).toBe(1);
  });

  it('counts parallel requests from two pools exactly, each seeing its own place', async () => {
    const key = 'parallel';
    const counted = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        new RateLimitWindows(dataSources[index % 2]).countAndRead(
          [longRule(key), shortRule(`${key}-${index % 3}`)],
          [],
          nowMs,
        ),
      ),
    );
    const seen = counted.map((result) => result.get(key)?.count).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(seen).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('sweeps only the windows that ended, keeping a long window among short ones', async () => {
    await windows.countAndRead([longRule('long'), shortRule('short-1'), shortRule('short-2')], [], nowMs);
    nowMs += 2 * MINUTE_MS;
    const before: { count: number }[] = await dataSources[0].query(
      'SELECT count(*)::int AS count FROM rate_limit_windows WHERE expires_at > $1',
      [new Date(nowMs).toISOString()],
    );
    expect(await windows.sweep(nowMs)).toBeGreaterThanOrEqual(2);
    const left: { key: string; expires_at: Date }[] = await dataSources[0].query(
      'SELECT key, expires_at FROM rate_limit_windows',
    );
    expect(left.length).toBe(before[0].count);
    expect(left.map((row) => row.key)).toContain('long');
    expect(left.every((row) => row.expires_at.getTime() > nowMs)).toBe(true);
    expect(await countOf('long')).toBe(1);
  });

  it('deletes the ended windows as a recurring job, by the injected clock', async () => {
    await windows.countAndRead([shortRule('job-short')], [], nowMs);
    const clock = new ManualClock(new Date(nowMs));
    const sweep = new RateLimitWindowsSweep(windows, clock);
    const kept = async () =>
      (await dataSources[0].query("SELECT key FROM rate_limit_windows WHERE key = 'job-short'")).length as number;
    await sweep.sweep();
    expect(await kept()).toBe(1);
    clock.advanceMs(MINUTE_MS);
    expect((await sweep.sweep()).acted).toBeGreaterThanOrEqual(1);
    expect(await kept()).toBe(0);
  });
});
