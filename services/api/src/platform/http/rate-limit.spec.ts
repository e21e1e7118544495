import { ManualClock } from '../clock';
import { type RateLimitCount, RateLimitWindows } from './rate-limit';

const MINUTE_MS = 60_000;

describe('RateLimitWindows', () => {
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
  const now = () => clock.now().getTime();
  const shortRule = (key: string): RateLimitCount => ({ key, limit: 2, windowMs: MINUTE_MS });
  const longRule = (key: string): RateLimitCount => ({ key, limit: 2, windowMs: 60 * MINUTE_MS });

  it('allows the limit within a window, then refuses until that window ends', () => {
    const windows = new RateLimitWindows();
    expect(windows.take([shortRule('a')], now()).allowed).toBe(true);
    clock.advanceMs(10_000);
    expect(windows.take([shortRule('a')], now()).allowed).toBe(true);
    clock.advanceMs(10_000);
    expect(windows.take([shortRule('a')], now())).toEqual({ allowed: false, retryAfterSeconds: 40 });
    clock.advanceMs(40_000);
    expect(windows.take([shortRule('a')], now()).allowed).toBe(true);
  });

  it('keeps a long window when a short rule sweeps the table, and sweeps only windows that ended', () => {
    // Sweep as soon as more than two keys are tracked.
    const windows = new RateLimitWindows(2);
    windows.take([longRule('long')], now());
    windows.take([longRule('long')], now());
    windows.take([shortRule('short-1')], now());
    windows.take([shortRule('short-2')], now());
    clock.advanceMs(2 * MINUTE_MS);
    // This take sweeps: both short windows have ended, the long one has 58 minutes to run.
    windows.take([shortRule('short-3')], now());
    expect(windows.trackedKeys).toBe(2);
    expect(windows.take([longRule('long')], now())).toEqual({ allowed: false, retryAfterSeconds: 58 * 60 });
  });

  it('counts a request against all its keys only when none of them is full, and answers the longest wait', () => {
    const windows = new RateLimitWindows();
    windows.take([shortRule('per-address'), longRule('per-account')], now());
    windows.take([longRule('per-account')], now());
    // The account is full: the address is not counted for this refused request.
    expect(windows.take([shortRule('per-address'), longRule('per-account')], now())).toEqual({
      allowed: false,
      retryAfterSeconds: 3600,
    });
    expect(windows.take([shortRule('per-address')], now()).allowed).toBe(true);
    expect(windows.take([shortRule('per-address')], now()).allowed).toBe(false);
  });

  it('takes a place back on request, but not from a window that has ended meanwhile', () => {
    const windows = new RateLimitWindows();
    const first = windows.take([shortRule('k')], now());
    const second = windows.take([shortRule('k')], now());
    if (!first.allowed || !second.allowed) throw new Error('the first two requests fit');
    windows.giveBack('k', second.windows[0]);
    expect(windows.take([shortRule('k')], now()).allowed).toBe(true);
    expect(windows.take([shortRule('k')], now()).allowed).toBe(false);

    clock.advanceMs(MINUTE_MS);
    const fresh = windows.take([shortRule('k')], now());
    // A give-back for the old window must not make room in the new one.
    windows.giveBack('k', first.windows[0]);
    expect(fresh.allowed).toBe(true);
    expect(windows.take([shortRule('k')], now()).allowed).toBe(true);
    expect(windows.take([shortRule('k')], now()).allowed).toBe(false);
  });
});
