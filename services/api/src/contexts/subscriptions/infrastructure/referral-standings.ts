import { Injectable } from '@nestjs/common';
import { RewardTiers } from '../../../platform/config';
import { type ReferralStanding, ReferralStandings } from '../../identity';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';

/**
 * Identity's `ReferralStandings` port, bound to the subscriptions table: a referrer's active referrals are the users
 * they referred who hold an ACTIVE subscription (each counted once), and the configured tiers (`RewardTiers`, the
 * one table the whole deployment prices with) turn that count into a percent.
 */
@Injectable()
export class SubscriptionReferralStandings extends ReferralStandings {
  constructor(
    private readonly subscriptions: SubscriptionReader,
    private readonly tiers: RewardTiers,
  ) {
    super();
  }

  async standingsOf(
    referredByReferrer: ReadonlyMap<string, readonly string[]>,
  ): Promise<ReadonlyMap<string, ReferralStanding>> {
    const standings = new Map<string, ReferralStanding>();
    for (const [referrer, referred] of referredByReferrer) standings.set(referrer, await this.standingOf(referred));
    return standings;
  }

  async standingOf(referred: readonly string[]): Promise<ReferralStanding> {
    const activeReferrals = await this.subscriptions.countActiveHolders(referred);
    return { activeReferrals, discountPercent: this.tiers.referralDiscountPercent(activeReferrals) };
  }
}
