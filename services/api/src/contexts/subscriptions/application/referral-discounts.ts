import { Injectable } from '@nestjs/common';
import { UserReader } from '../../identity';
import { SubscriptionReferralStandings } from '../infrastructure/referral-standings';

/**
 * The discount a buyer gets now, at a purchase or a renewal: by the users they referred who hold an ACTIVE
 * subscription, through the configured tiers.
 */
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
