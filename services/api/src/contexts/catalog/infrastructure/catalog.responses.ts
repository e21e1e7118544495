import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CURRENCIES,
  type Currency,
  LIMITS,
  type Plan,
  PLAN_DURATIONS_MONTHS,
  PLAN_PRICE_MAX,
  PLAN_STATUSES,
  type PlanDurationMonths,
  type PlanStatus,
} from '@kupa/proto';
import { AMOUNT_SCHEMA, InstantProperty, PageOf } from '../../../platform/http';

/** The catalog's answers as OpenAPI schemas; the shapes themselves are proto's payload types, which these implement. */

export class PlanDto implements Plan {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ minLength: 1, maxLength: LIMITS.planNameMaxLength })
  name: string;

  @ApiProperty({ type: 'integer', enum: [...PLAN_DURATIONS_MONTHS] })
  durationInMonths: PlanDurationMonths;

  @ApiProperty({ ...AMOUNT_SCHEMA, maximum: PLAN_PRICE_MAX })
  price: number;

  @ApiProperty({ enum: CURRENCIES })
  currency: Currency;

  @ApiProperty()
  isRecurrent: boolean;

  @ApiProperty({ description: 'Whether clients may buy the package by card checkout' })
  cardPaymentAllowed: boolean;

  @ApiProperty({ maxLength: LIMITS.planDescriptionMaxLength })
  description: string;

  @ApiProperty({ maxLength: LIMITS.planNameMaxLength, description: 'The English name; empty when there is none' })
  nameEn: string;

  @ApiProperty({ maxLength: LIMITS.planDescriptionMaxLength, description: 'The English description; may be empty' })
  descriptionEn: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: LIMITS.planFeatureMaxLength },
    maxItems: LIMITS.planFeaturesMaxItems,
  })
  features: string[];

  @ApiProperty({ enum: PLAN_STATUSES })
  status: PlanStatus;

  @InstantProperty()
  createdAt: string;

  @InstantProperty({ description: 'The last change of terms or status' })
  updatedAt: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Staff reads only: the subscriptions, of any status, that name the package (in use when above 0)',
  })
  subscriptionCount?: number;
}

export const PlanPageDto = PageOf(PlanDto);
