import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ambassadorBonusMinor,
  ambassadorBonusPercent,
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  discountedPriceMinor,
  referralDiscountPercent,
  tierTableProblem,
} from './rewards';

const TOP_DISCOUNT = DEFAULT_REFERRAL_DISCOUNT_TIERS[DEFAULT_REFERRAL_DISCOUNT_TIERS.length - 1].percent;
const TOP_BONUS = DEFAULT_AMBASSADOR_BONUS_TIERS[DEFAULT_AMBASSADOR_BONUS_TIERS.length - 1].percent;
/** Up to a million dollars in cents: far beyond any deposit limit, well inside safe integers once multiplied. */
const moneyMinor = fc.integer({ min: 0, max: 100_000_000 });
const percent = fc.integer({ min: 0, max: 100 });
const referrals = fc.integer({ min: 0, max: 100_000 });

describe('referral discount percent', () => {
  it('is the table at each boundary: 0 → 0, 1–2 → 5, 3–5 → 10, 6–9 → 15, 10 and more → 20', () => {
    const expected: Array<[number, number]> = [
      [0, 0],
      [1, 5],
      [2, 5],
      [3, 10],
      [5, 10],
      [6, 15],
      [9, 15],
      [10, 20],
      [11, 20],
      [1000, 20],
    ];
    for (const [activeReferrals, discount] of expected)
      expect(referralDiscountPercent(activeReferrals), `${activeReferrals} referrals`).toBe(discount);
  });

  it('never falls as active referrals grow', () => {
    fc.assert(
      fc.property(referrals, referrals, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(referralDiscountPercent(low)).toBeLessThanOrEqual(referralDiscountPercent(high));
      }),
    );
  });

  it('is never above the top tier nor below zero', () => {
    fc.assert(
      fc.property(referrals, (count) => {
        const discount = referralDiscountPercent(count);
        expect(discount).toBeGreaterThanOrEqual(0);
        expect(discount).toBeLessThanOrEqual(TOP_DISCOUNT);
      }),
    );
  });
});

describe('discounted price', () => {
  it('is whole cents between zero and the list price', () => {
    fc.assert(
      fc.property(moneyMinor, percent, (price, off) => {
        const result = discountedPriceMinor(price, off);
        expect(Number.isSafeInteger(result)).toBe(true);
        expect(result).toBeGreaterThanOrEqual(0);
        expect(result).toBeLessThanOrEqual(price);
      }),
    );
  });

  it('never falls as the list price grows, and never rises as the discount grows', () => {
    fc.assert(
      fc.property(moneyMinor, moneyMinor, percent, percent, (a, b, p, q) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const [less, more] = p <= q ? [p, q] : [q, p];
        expect(discountedPriceMinor(low, p)).toBeLessThanOrEqual(discountedPriceMinor(high, p));
        expect(discountedPriceMinor(a, more)).toBeLessThanOrEqual(discountedPriceMinor(a, less));
      }),
    );
  });

  it('rounds the discount half up: 5 % of 9.90 is 0.495, so 9.40 is charged', () => {
    expect(discountedPriceMinor(990, 5)).toBe(940);
    expect(discountedPriceMinor(1000, 0)).toBe(1000);
    expect(discountedPriceMinor(1000, 100)).toBe(0);
  });
});

describe('ambassador bonus', () => {
  it('starts at each boundary: 50, 200, 500, 1000 and 2500 dollars', () => {
    const expected: Array<[number, number]> = [
      [4_999, 0],
      [5_000, 5],
      [19_999, 5],
      [20_000, 10],
      [49_999, 10],
      [50_000, 15],
      [99_999, 15],
      [100_000, 20],
      [249_999, 20],
      [250_000, 25],
      [10_000_000, 25],
    ];
    for (const [depositMinor, bonusPercent] of expected) {
      expect(ambassadorBonusPercent(depositMinor), `${depositMinor} cents`).toBe(bonusPercent);
      expect(ambassadorBonusMinor(depositMinor)).toBe(Math.floor((depositMinor * bonusPercent) / 100));
    }
    expect(ambassadorBonusMinor(5_000)).toBe(250);
    expect(ambassadorBonusMinor(250_000)).toBe(62_500);
  });

  it('is nothing below 50.00', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_999 }), (deposit) => {
        expect(ambassadorBonusMinor(deposit)).toBe(0);
      }),
    );
  });

  it('is whole cents, never more than its percent of the deposit, nor above the top tier', () => {
    fc.assert(
      fc.property(moneyMinor, (deposit) => {
        const bonus = ambassadorBonusMinor(deposit);
        expect(Number.isSafeInteger(bonus)).toBe(true);
        expect(bonus).toBeGreaterThanOrEqual(0);
        expect(bonus * 100).toBeLessThanOrEqual(deposit * ambassadorBonusPercent(deposit));
        expect(bonus * 100).toBeLessThanOrEqual(deposit * TOP_BONUS);
      }),
    );
  });

  it('never falls as the deposit grows', () => {
    fc.assert(
      fc.property(moneyMinor, moneyMinor, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(ambassadorBonusMinor(low)).toBeLessThanOrEqual(ambassadorBonusMinor(high));
        expect(ambassadorBonusPercent(low)).toBeLessThanOrEqual(ambassadorBonusPercent(high));
      }),
    );
  });

  it('follows any valid table, not only the default one', () => {
    const table = fc
      .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 0, maxLength: 6 })
      .chain((thresholds) =>
        fc.array(percent, { minLength: thresholds.length, maxLength: thresholds.length }).map((percents) => {
          const sortedPercents = [...percents].sort((x, y) => x - y);
          return [...thresholds]
            .sort((x, y) => x - y)
            .map((minDepositMinor, index) => ({ minDepositMinor, percent: sortedPercents[index] }));
        }),
      );
    fc.assert(
      fc.property(table, moneyMinor, moneyMinor, (tiers, a, b) => {
        expect(tierTableProblem(tiers, 'minDepositMinor')).toBeNull();
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(ambassadorBonusMinor(low, tiers)).toBeLessThanOrEqual(ambassadorBonusMinor(high, tiers));
        if (tiers.length === 0 || low < tiers[0].minDepositMinor) expect(ambassadorBonusMinor(low, tiers)).toBe(0);
      }),
    );
  });
});

describe('tier tables from configuration', () => {
  it('accepts both default tables', () => {
    expect(tierTableProblem(DEFAULT_REFERRAL_DISCOUNT_TIERS, 'minActiveReferrals')).toBeNull();
    expect(tierTableProblem(DEFAULT_AMBASSADOR_BONUS_TIERS, 'minDepositMinor')).toBeNull();
    expect(tierTableProblem([], 'minDepositMinor')).toBeNull();
  });

  it('says what is wrong with a table it refuses', () => {
    const cases: Array<[unknown, string]> = [
      [{ minDepositMinor: 1, percent: 5 }, 'JSON array'],
      [
        [
          { minDepositMinor: 100, percent: 5 },
          { minDepositMinor: 100, percent: 6 },
        ],
        'greater than',
      ],
      [
        [
          { minDepositMinor: 200, percent: 5 },
          { minDepositMinor: 100, percent: 6 },
        ],
        'greater than',
      ],
      [[{ minDepositMinor: 100, percent: 101 }], 'from 0 to 100'],
      [[{ minDepositMinor: 100, percent: -1 }], 'from 0 to 100'],
      [[{ minDepositMinor: 100, percent: 2.5 }], 'from 0 to 100'],
      [[{ minDepositMinor: 0, percent: 5 }], '≥ 1'],
      [
        [
          { minDepositMinor: 100, percent: 10 },
          { minDepositMinor: 200, percent: 5 },
        ],
        'not be lower',
      ],
      [[{ minActiveReferrals: 1, percent: 5 }], 'exactly the fields minDepositMinor and percent'],
      [['5%'], 'must be an object'],
    ];
    for (const [value, message] of cases)
      expect(tierTableProblem(value, 'minDepositMinor'), JSON.stringify(value)).toContain(message);
  });
});
