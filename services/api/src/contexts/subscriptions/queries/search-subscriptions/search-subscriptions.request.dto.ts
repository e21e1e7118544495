import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkUuid,
  LIMITS,
  type NumberRange,
  PLAN_DURATIONS_MONTHS,
  PLAN_PRICE_MAX,
  type PlanDurationMonths,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  type SubscriptionSearchRequest,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, Matches, ValidateNested } from 'class-validator';
import {
  codeMessage,
  DateRangeDto,
  IsAmount,
  OptionalField,
  SatisfiesRule,
  SearchRequestDto,
  type SortDto,
  sortsProperty,
} from '../../../../platform/http';

const maxItems = codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems });

const PRICE_BOUND = {
  type: 'number',
  minimum: 0,
  maximum: PLAN_PRICE_MAX,
  multipleOf: 10 ** -LIMITS.amountDecimalPlaces,
  nullable: true,
} as const;

/** A part of a subscription id: hexadecimal digits and dashes, as ids are written. */
export const ID_PART = /^[0-9a-f-]{1,36}$/;

/** Inclusive price bounds in dollars; either may be left out or null. */
export class SubscriptionPriceRangeDto implements NumberRange {
  @ApiPropertyOptional(PRICE_BOUND)
  @IsOptional()
  @IsAmount(undefined, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor })
  from?: number | null;

  @ApiPropertyOptional(PRICE_BOUND)
  @IsOptional()
  @IsAmount(undefined, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor })
  to?: number | null;
}

/** `POST /subscriptions/search`: paging and sorting plus every subscriptions filter (docs/api.md, Subscriptions). */
export class SearchSubscriptionsRequestDto extends SearchRequestDto implements SubscriptionSearchRequest {
  @ApiPropertyOptional(sortsProperty('subscriptions'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', pattern: ID_PART.source },
    maxItems: LIMITS.filterListMaxItems,
    description: 'Whole ids, or parts of one (a subscription matches when its id contains any of them)',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @Matches(ID_PART, { each: true, message: codeMessage('error.validation.invalid.field') })
  ids?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: "One user's subscriptions (staff)" })
  @OptionalField()
  @SatisfiesRule(checkUuid)
  userUuid?: string;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [...PLAN_DURATIONS_MONTHS],
    isArray: true,
    maxItems: LIMITS.filterListMaxItems,
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(PLAN_DURATIONS_MONTHS, { each: true })
  durationsInMonths?: PlanDurationMonths[];

  @ApiPropertyOptional({ enum: SUBSCRIPTION_TYPES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(SUBSCRIPTION_TYPES, { each: true })
  types?: SubscriptionType[];

  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(SUBSCRIPTION_STATUSES, { each: true })
  statuses?: SubscriptionStatus[];

  @ApiPropertyOptional({ type: DateRangeDto, description: 'Inclusive; a date without a time covers that whole day' })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  startDate?: DateRangeDto;

  @ApiPropertyOptional({ type: DateRangeDto, description: 'Inclusive; a date without a time covers that whole day' })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  endDate?: DateRangeDto;

  @ApiPropertyOptional({ type: DateRangeDto, description: 'Inclusive; a date without a time covers that whole day' })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  createdAt?: DateRangeDto;

  @ApiPropertyOptional({ type: SubscriptionPriceRangeDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => SubscriptionPriceRangeDto)
  price?: SubscriptionPriceRangeDto;
}
