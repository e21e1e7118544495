import {
  type Dictionaries,
  type DictionaryEntry,
  type EnumName,
  ENUM_VALUES,
  enumLabel,
  LIMITS,
  type ReferralDiscountTier,
  type AmbassadorBonusTier,
  type SupportContacts,
} from '@kupa/proto';

/**
 * Every enum with its he/en labels, every limit, the support contacts and the reward tiers: what a client needs to
 * render forms, its help screen and its referrals screen without hard-coding.
 */
/** The tables as the deployment holds them (`RewardTiers`): read only, copied into the answer. */
export interface RewardTierSource {
  referralDiscount: readonly ReferralDiscountTier[];
  ambassadorBonus: readonly AmbassadorBonusTier[];
}

export function buildDictionaries(support: SupportContacts, rewardTiers: RewardTierSource): Dictionaries {
  const enums: Record<string, DictionaryEntry[]> = {};
  for (const [name, values] of Object.entries(ENUM_VALUES) as [EnumName, readonly (string | number)[]][]) {
    enums[name] = values.map((value) => ({
      value,
      he: enumLabel(name, value, 'he'),
      en: enumLabel(name, value, 'en'),
    }));
  }
  return {
    enums,
    limits: { ...LIMITS },
    support: { ...support },
    rewardTiers: {
      referralDiscount: rewardTiers.referralDiscount.map((tier) => ({ ...tier })),
      ambassadorBonus: rewardTiers.ambassadorBonus.map((tier) => ({ ...tier })),
    },
  };
}
