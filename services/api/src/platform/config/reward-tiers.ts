import {
  type AmbassadorBonusTier,
  ambassadorBonusMinor,
  ambassadorBonusPercent,
  type ReferralDiscountTier,
  referralDiscountPercent,
} from '@kupa/proto';
import type { AppConfig } from './app-config';

/**
 * The reward tables this deployment runs with (`REFERRAL_DISCOUNT_TIERS`, `AMBASSADOR_BONUS_TIERS`, defaults from
 * proto): the one place the ambassador bonus and the referral discount read them, so a purchase's discount and a
 * deposit's bonus never follow different tables. The arithmetic is proto's; this only binds the configured tables.
 * `ConfigModule` provides it globally: inject `RewardTiers`.
 */
export class RewardTiers {
  readonly referralDiscount: readonly ReferralDiscountTier[];
  readonly ambassadorBonus: readonly AmbassadorBonusTier[];

  constructor(config: Pick<AppConfig, 'referralDiscountTiers' | 'ambassadorBonusTiers'>) {
    this.referralDiscount = config.referralDiscountTiers;
    this.ambassadorBonus = config.ambassadorBonusTiers;
  }

  referralDiscountPercent(activeReferrals: number): number {
    return referralDiscountPercent(activeReferrals, this.referralDiscount);
  }

  ambassadorBonusPercent(depositMinor: number): number {
    return ambassadorBonusPercent(depositMinor, this.ambassadorBonus);
  }

  ambassadorBonusMinor(depositMinor: number): number {
    return ambassadorBonusMinor(depositMinor, this.ambassadorBonus);
  }
}
