/**
 * Referral discounts and ambassador deposit bonuses (docs/product.md, Referrals and bonuses). Both are tables of
 * tiers, lowest threshold first; deployments may replace them through configuration, and these are the defaults.
 */

/** A referrer with at least `minActiveReferrals` referred users holding an ACTIVE subscription gets `percent` off. */
export interface ReferralDiscountTier {
  minActiveReferrals: number;
  percent: number;
}

/** A deposit of at least `minDepositMinor` cents earns an ambassador `percent` of it as a bonus. */
export interface AmbassadorBonusTier {
  minDepositMinor: number;
  percent: number;
}

export const DEFAULT_REFERRAL_DISCOUNT_TIERS: readonly ReferralDiscountTier[] = Object.freeze([
  { minActiveReferrals: 1, percent: 5 },
  { minActiveReferrals: 3, percent: 10 },
  { minActiveReferrals: 6, percent: 15 },
  { minActiveReferrals: 10, percent: 20 },
]);

export const DEFAULT_AMBASSADOR_BONUS_TIERS: readonly AmbassadorBonusTier[] = Object.freeze([
  { minDepositMinor: 5_000, percent: 5 },
  { minDepositMinor: 20_000, percent: 10 },
  { minDepositMinor: 50_000, percent: 15 },
  { minDepositMinor: 100_000, percent: 20 },
  { minDepositMinor: 250_000, percent: 25 },
]);

/** The discount a referrer gets with `activeReferrals` referred users holding an ACTIVE subscription: 0 below the table. */
export function referralDiscountPercent(
  activeReferrals: number,
  tiers: readonly ReferralDiscountTier[] = DEFAULT_REFERRAL_DISCOUNT_TIERS,
): number {
  let percent = 0;
  for (const tier of tiers) if (activeReferrals >= tier.minActiveReferrals) percent = tier.percent;
  return percent;
}

/** A price after a percentage off, in whole cents, rounded half up so the house never charges a fraction more. */
export function discountedPriceMinor(listPriceMinor: number, percent: number): number {
  return listPriceMinor - Math.floor((listPriceMinor * percent) / 100 + 0.5);
}

/** The bonus percent an ambassador earns on a deposit of `depositMinor` cents: 0 below the table. */
export function ambassadorBonusPercent(
  depositMinor: number,
  tiers: readonly AmbassadorBonusTier[] = DEFAULT_AMBASSADOR_BONUS_TIERS,
): number {
  let percent = 0;
  for (const tier of tiers) if (depositMinor >= tier.minDepositMinor) percent = tier.percent;
  return percent;
}

/** The bonus in whole cents, rounded down: a bonus never exceeds its percentage of what arrived. */
export function ambassadorBonusMinor(
  depositMinor: number,
  tiers: readonly AmbassadorBonusTier[] = DEFAULT_AMBASSADOR_BONUS_TIERS,
): number {
  return Math.floor((depositMinor * ambassadorBonusPercent(depositMinor, tiers)) / 100);
}

/**
 * Why a tier table cannot be used, or null when it can: an array of `{<thresholdKey>, percent}` objects whose
 * thresholds are whole numbers ≥ 1 in strictly ascending order and whose percents are whole numbers from 0 to 100
 * that never fall from one tier to the next (more referrals or a larger deposit never earn less). An empty table is
 * valid: it turns the reward off. The API refuses to start with a table that has a problem.
 */
export function tierTableProblem(
  value: unknown,
  thresholdKey: 'minActiveReferrals' | 'minDepositMinor',
): string | null {
  if (!Array.isArray(value)) return 'must be a JSON array of tiers';
  let previous: { threshold: number; percent: number } | null = null;
  for (const [index, tier] of value.entries()) {
    const where = `tier ${index + 1}`;
    if (typeof tier !== 'object' || tier === null || Array.isArray(tier)) return `${where} must be an object`;
    const keys = Object.keys(tier).sort();
    const expected = [thresholdKey, 'percent'].sort();
    if (keys.length !== 2 || keys[0] !== expected[0] || keys[1] !== expected[1])
      return `${where} must have exactly the fields ${thresholdKey} and percent`;
    const { [thresholdKey]: threshold, percent } = tier as Record<string, unknown>;
    if (typeof threshold !== 'number' || !Number.isSafeInteger(threshold) || threshold < 1)
      return `${where}: ${thresholdKey} must be a whole number ≥ 1`;
    if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 100)
      return `${where}: percent must be a whole number from 0 to 100`;
    if (previous && threshold <= previous.threshold)
      return `${where}: ${thresholdKey} must be greater than the tier before's (${previous.threshold})`;
    if (previous && percent < previous.percent)
      return `${where}: percent must not be lower than the tier before's (${previous.percent})`;
    previous = { threshold, percent };
  }
  return null;
}
