import { ApiProperty } from '@nestjs/swagger';
import {
  checkPlanDescription,
  checkPlanFeature,
  checkPlanName,
  CURRENCIES,
  type Currency,
  LIMITS,
  PLAN_DURATIONS_MONTHS,
  PLAN_PRICE_MAX,
  PLAN_STATUSES,
  type PlanDurationMonths,
  type PlanRequest,
  type PlanStatus,
} from '@kupa/proto';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn } from 'class-validator';
import { AMOUNT_SCHEMA, codeMessage, IsAmount, OptionalField, SatisfiesRule, Trimmed } from '../../../platform/http';

/**
 * A package's terms and status, as `POST /payment-plans` creates it and `PUT /payment-plans/{id}` sets it
 * (docs/api.md, Catalog). Every field is required: an update sets the whole package.
 */
export class PlanRequestDto implements PlanRequest {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.planNameMaxLength, description: 'Surrounding spaces are dropped' })
  @Trimmed()
  @SatisfiesRule(checkPlanName)
  name: string;

  @ApiProperty({ type: 'integer', enum: [...PLAN_DURATIONS_MONTHS] })
  @IsIn(PLAN_DURATIONS_MONTHS)
  durationInMonths: PlanDurationMonths;

  @ApiProperty({ ...AMOUNT_SCHEMA, maximum: PLAN_PRICE_MAX })
  @IsAmount(undefined, { maxMinor: LIMITS.planPriceMaxMinor })
  price: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES, { message: codeMessage('error.validation.invalid.currency') })
  currency: Currency;

  @ApiProperty()
  @IsBoolean()
  isRecurrent: boolean;

  @ApiProperty({ maxLength: LIMITS.planDescriptionMaxLength, description: 'May be empty' })
  @Trimmed()
  @SatisfiesRule(checkPlanDescription)
  description: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: LIMITS.planFeatureMaxLength },
    maxItems: LIMITS.planFeaturesMaxItems,
    description: 'One line each, shown in order',
  })
  @Trimmed()
  @IsArray()
  @ArrayMaxSize(LIMITS.planFeaturesMaxItems, {
    message: codeMessage('error.validation.max.items', { maxItems: LIMITS.planFeaturesMaxItems }),
  })
  @SatisfiesRule(checkPlanFeature, { each: true })
  features: string[];

  @ApiProperty({ enum: PLAN_STATUSES })
  @IsIn(PLAN_STATUSES)
  status: PlanStatus;

  @ApiProperty({
    required: false,
    default: true,
    description: 'Whether clients may buy the package by card checkout; true when absent',
  })
  @OptionalField()
  @IsBoolean()
  cardPaymentAllowed?: boolean;

  @ApiProperty({
    required: false,
    default: '',
    maxLength: LIMITS.planNameMaxLength,
    description: 'The English name beside `name` (Hebrew); empty or absent when there is none',
  })
  @OptionalField()
  @Trimmed()
  @SatisfiesRule((value) => (value.trim() === '' ? null : checkPlanName(value)))
  nameEn?: string;

  @ApiProperty({
    required: false,
    default: '',
    maxLength: LIMITS.planDescriptionMaxLength,
    description: 'The English description beside `description`; empty or absent when there is none',
  })
  @OptionalField()
  @Trimmed()
  @SatisfiesRule(checkPlanDescription)
  descriptionEn?: string;
}
