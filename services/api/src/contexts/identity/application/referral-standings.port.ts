/** How a referrer stands: referred users holding an ACTIVE subscription, and the discount that earns them. */
export interface ReferralStanding {
  activeReferrals: number;
  discountPercent: number;
}

/**
 * What identity needs to show a referrer's figures in `User.referrals` (docs/product.md, Referrals): identity knows who
 * referred whom (`users.referrer_profile_id`) and nothing about subscriptions. The subscriptions context binds this
 * port to its own table and its discount tiers, as the ledger binds `UserBalances` (ADR 0013).
 */
export abstract class ReferralStandings {
  /**
   * For each referrer's profile id, given the uuids of the users they referred: how they stand. One call per page of
   * users; a referrer left out of the answer stands at zero.
   */
  abstract standingsOf(
    referredByReferrer: ReadonlyMap<string, readonly string[]>,
  ): Promise<ReadonlyMap<string, ReferralStanding>>;
}
