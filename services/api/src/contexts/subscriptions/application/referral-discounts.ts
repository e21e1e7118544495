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
    return this.percentForReferred(await this.users.referredUserUuidsOf(profileId));
  }

  /** The same, given whom the buyer referred (`SubscriptionParties.existingBuyer`). */
  async percentForReferred(referredUuids: readonly string[]): Promise<number> {
    return (await this.standings.standingOf(referredUuids)).discountPercent;
  }
}
