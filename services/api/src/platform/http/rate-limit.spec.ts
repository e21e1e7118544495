import type { RateLimitRule } from './rate-limit';
import { waitMs } from './rate-limit';
import type { RateLimitCount, RateLimitWindow } from './rate-limit-windows';

const NOW_MS = Date.parse('2026-03-01T10:00:00Z');
const MINUTE_MS = 60_000;

/** The sign-in rules' shape, small: a pair of account and address, and the account across addresses. */
const pairRule: RateLimitRule = { name: 'pair', key: 'ip-and-email', limit: 3, windowMs: 15 * MINUTE_MS };
const accountRule: RateLimitRule = {
  name: 'account',
  key: 'email',
  limit: 4,
  windowMs: 60 * MINUTE_MS,
  refusesOnlyAfter: 'pair',
};
const rules = [pairRule, accountRule];
const counts: RateLimitCount[] = rules.map((rule) => ({ key: rule.name, limit: rule.limit, windowMs: rule.windowMs }));

/** Windows as the store answers them, with this request already counted in each. */
const windows = (pairCount: number, accountCount: number): Map<string, RateLimitWindow> =>
  new Map([
    ['pair', { key: 'pair', count: pairCount, expiresAtMs: NOW_MS + 5 * MINUTE_MS }],
    ['account', { key: 'account', count: accountCount, expiresAtMs: NOW_MS + 40 * MINUTE_MS }],
  ]);

describe('waitMs', () => {
  it('lets a request in while every rule has room, and refuses one a full rule until that window ends', () => {
    expect(waitMs(rules, counts, windows(3, 3), NOW_MS)).toBe(0);
    // Three failures of this pair before this request: the pair is full for the 5 minutes its window still runs.
    expect(waitMs(rules, counts, windows(4, 4), NOW_MS)).toBe(5 * MINUTE_MS);
  });

  it('answers the longest wait when several rules that lock are full', () => {
    const locking = [pairRule, { ...accountRule, refusesOnlyAfter: undefined }];
    expect(waitMs(locking, counts, windows(4, 5), NOW_MS)).toBe(40 * MINUTE_MS);
  });

  it('does not refuse an address that never failed for a full account: it slows down, it does not lock', () => {
    expect(waitMs(rules, counts, windows(1, 20), NOW_MS)).toBe(0);
  });

  it('makes an address that failed for a full account wait until its own window ends, not the account’s', () => {
    expect(waitMs(rules, counts, windows(2, 20), NOW_MS)).toBe(5 * MINUTE_MS);
  });

  it('reads a rule counted once the request ended as it stands, without this request', () => {
    const ended: RateLimitRule = {
      name: 'lookups',
      key: 'account',
      limit: 2,
      windowMs: MINUTE_MS,
      countsOnly: 'error.user.not.found',
      countedWhenEnded: true,
    };
    const endedCounts: RateLimitCount[] = [{ key: 'lookups', limit: 2, windowMs: MINUTE_MS }];
    const at = (count: number) =>
      new Map([['lookups', { key: 'lookups', count, expiresAtMs: NOW_MS + 30_000 }]]) as Map<string, RateLimitWindow>;
    expect(waitMs([ended], endedCounts, at(1), NOW_MS)).toBe(0);
    expect(waitMs([ended], endedCounts, at(2), NOW_MS)).toBe(30_000);
    expect(waitMs([ended], endedCounts, new Map(), NOW_MS)).toBe(0);
  });
});
