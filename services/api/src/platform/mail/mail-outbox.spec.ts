import { retryDelayMs } from './mail-outbox';

describe('mail retry delays', () => {
  it('double from the base after each failure and stop growing at the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempts) => retryDelayMs(attempts, 10_000, 15 * 60_000));
    expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000]);
    expect(retryDelayMs(8, 10_000, 15 * 60_000)).toBe(15 * 60_000);
    expect(retryDelayMs(10_000, 10_000, 15 * 60_000)).toBe(15 * 60_000);
  });
});
