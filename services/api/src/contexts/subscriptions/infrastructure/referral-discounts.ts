import { Injectable } from '@nestjs/common';
import { DEFAULT_REFERRAL_DISCOUNT_TIERS, type ReferralDiscountTier, referralDiscountPercent } from '@kupa/proto';
import { type ReferralStanding, ReferralStandings, UserReader } from '../../identity';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';

/**
 * The referral discount table in force (docs/product.md, Referrals). Bound to proto's defaults; a deployment that
 * configures its own tiers binds another implementation, and nothing else changes.
 */
export abstract class ReferralDiscountTiers {
  abstract tiers(): readonly ReferralDiscountTier[];
}

@Injectable()
export class DefaultReferralDiscountTiers extends ReferralDiscountTiers {
  tiers(): readonly ReferralDiscountTier[] {
    return DEFAULT_REFERRAL_DISCOUNT_TIERS;
  }
}

/**
 * Identity's `ReferralStandings` port, bound to the subscriptions table: a referrer's active referrals are the users
 * they referred who hold an ACTIVE subscription (each counted once), and the tiers turn that count into a percent.
 */
@Injectable()
export class SubscriptionReferralStandings extends ReferralStandings {
  constructor(
    private readonly subscriptions: SubscriptionReader,
    private readonly tiers: ReferralDiscountTiers,
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
    return { activeReferrals, discountPercent: referralDiscountPercent(activeReferrals, this.tiers.tiers()) };
  }
}

/** The discount a buyer gets now, at a purchase or a renewal: by the users they referred. */
@Injectable()
export class ReferralDiscounts {
  constructor(
    private readonly users: UserReader,
    private readonly standings: SubscriptionReferralStandings,
  ) {}

  async percentFor(profileId: string): Promise<number> {
    const referred = await this.users.referredUserUuidsOf(profileId);
    return (await this.standings.standingOf(referred)).discountPercent;
  }
}
