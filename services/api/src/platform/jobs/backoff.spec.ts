import { backoffDelayMs } from './backoff';

describe('the backoff of background work', () => {
  it('doubles from its base after each failure and stops growing at its cap', () => {
    const backoff = { baseMs: 10_000, maxMs: 15 * 60_000 };
    const delays = [1, 2, 3, 4, 5, 6, 7].map((failures) => backoffDelayMs(backoff, failures));
    expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000]);
    expect(backoffDelayMs(backoff, 8)).toBe(15 * 60_000);
    expect(backoffDelayMs(backoff, 10_000)).toBe(15 * 60_000);
  });

  it('counts no failure yet as the first: the base', () => {
    expect(backoffDelayMs({ baseMs: 100, maxMs: 200 }, 0)).toBe(100);
  });
});
