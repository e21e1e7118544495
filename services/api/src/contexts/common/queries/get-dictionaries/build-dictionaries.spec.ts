import {
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  ENUM_LABELS,
  PAYMENT_METHODS,
} from '@kupa/proto';
import { buildDictionaries } from './build-dictionaries';

const DEFAULT_TIERS = {
  referralDiscount: DEFAULT_REFERRAL_DISCOUNT_TIERS,
  ambassadorBonus: DEFAULT_AMBASSADOR_BONUS_TIERS,
};

describe('dictionaries', () => {
  it('lists every enum the labels know, each value with a Hebrew and an English label', () => {
    const dictionaries = buildDictionaries({ telegram: null, email: null }, DEFAULT_TIERS);
    expect(Object.keys(dictionaries.enums).sort()).toEqual(Object.keys(ENUM_LABELS).sort());
    for (const entries of Object.values(dictionaries.enums)) {
      for (const entry of entries) {
        expect(entry.he).not.toBe('');
        expect(entry.en).not.toBe('');
      }
    }
    expect(dictionaries.enums.paymentMethod.map((entry) => entry.value)).toEqual([...PAYMENT_METHODS]);
    expect(dictionaries.limits.pageSizeMax).toBe(100);
  });

  it('carries the support contacts as configured, an unset one as null', () => {
    expect(buildDictionaries({ telegram: 'https://t.me/kupa_help', email: null }, DEFAULT_TIERS).support).toEqual({
      telegram: 'https://t.me/kupa_help',
      email: null,
    });
  });

  it('publishes the reward tables the deployment runs with, not the defaults', () => {
    const configured = {
      referralDiscount: [{ minActiveReferrals: 2, percent: 7 }],
      ambassadorBonus: [{ minDepositMinor: 10_000, percent: 3 }],
    };
    expect(buildDictionaries({ telegram: null, email: null }, configured).rewardTiers).toEqual(configured);
  });
});
