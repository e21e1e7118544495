import { ApiProperty } from '@nestjs/swagger';
import type {
  AmbassadorBonusTier,
  AppVersion,
  Dictionaries,
  DictionaryEntry,
  ReferralDiscountTier,
  RewardTierTables,
  SupportContacts,
} from '@kupa/proto';

/** The common answers as OpenAPI schemas; the shapes themselves are proto's payload types, which these implement. */

export class AppVersionDto implements AppVersion {
  @ApiProperty({ example: 'kupa' })
  name: string;

  @ApiProperty({ example: '0.1.0' })
  version: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The build commit, when known' })
  commit: string | null;
}

export class DictionaryEntryDto implements DictionaryEntry {
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }] })
  value: string | number;

  @ApiProperty({ description: 'Hebrew label' })
  he: string;

  @ApiProperty({ description: 'English label' })
  en: string;
}

export class SupportContactsDto implements SupportContacts {
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'https://t.me/kupa_support',
    description: 'The Telegram support link (SUPPORT_TELEGRAM); null when not configured',
  })
  telegram: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'support@kupa.example.com',
    description: 'The support e-mail address (SUPPORT_EMAIL); null when not configured',
  })
  email: string | null;
}

export class ReferralDiscountTierDto implements ReferralDiscountTier {
  @ApiProperty({ example: 3, description: 'Referred users holding an ACTIVE subscription needed for this tier' })
  minActiveReferrals: number;

  @ApiProperty({ example: 10, description: 'Percent off the referrer’s purchases and renewals' })
  percent: number;
}

export class AmbassadorBonusTierDto implements AmbassadorBonusTier {
  @ApiProperty({ example: 20000, description: 'The smallest deposit of this tier, in cents' })
  minDepositMinor: number;

  @ApiProperty({ example: 10, description: 'Percent of the deposit credited as the ambassador bonus' })
  percent: number;
}

export class RewardTierTablesDto implements RewardTierTables {
  @ApiProperty({ type: [ReferralDiscountTierDto], description: 'Lowest threshold first' })
  referralDiscount: ReferralDiscountTierDto[];

  @ApiProperty({ type: [AmbassadorBonusTierDto], description: 'Lowest threshold first' })
  ambassadorBonus: AmbassadorBonusTierDto[];
}

export class DictionariesDto implements Dictionaries {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/DictionaryEntryDto' } },
    description: 'Every enum by name, each value with its labels',
  })
  enums: Record<string, DictionaryEntryDto[]>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'The business limits (proto LIMITS)',
  })
  limits: Record<string, number>;

  @ApiProperty({ type: SupportContactsDto, description: 'Where clients reach support' })
  support: SupportContactsDto;

  @ApiProperty({ type: RewardTierTablesDto, description: 'The referral discount and ambassador bonus tables in force' })
  rewardTiers: RewardTierTablesDto;

  @ApiProperty({ description: 'Whether card checkout is configured (STRIPE_*); without it the portal hides it' })
  cardCheckoutAvailable: boolean;

  @ApiProperty({
    description:
      'Whether the balance can be topped up by card: a card provider and CARD_BALANCE_PAYMENTS on (ADR 0082)',
  })
  cardTopUpAvailable: boolean;

  @ApiProperty({
    description:
      'Whether crypto deposits can be made (CASHIER_URL, or the sandbox cashier); without it the portal says so',
  })
  cryptoDepositAvailable: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'https://watch.example/start',
    description:
      'The streaming service site (STREAMING_SITE_URL), linked from the portal sidebar; null when not configured',
  })
  streamingSiteUrl: string | null;
}
