import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  LIMITS,
  type NumberRange,
  PLAN_PRICE_MAX,
  PLAN_STATUSES,
  type PlanSearchRequest,
  type PlanStatus,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, ValidateNested } from 'class-validator';
import {
  codeMessage,
  IsAmount,
  OptionalField,
  SearchRequestDto,
  type SortDto,
  sortsProperty,
} from '../../../../platform/http';

const PRICE_BOUND = {
  type: 'number',
  minimum: 0,
  maximum: PLAN_PRICE_MAX,
  multipleOf: 10 ** -LIMITS.amountDecimalPlaces,
  nullable: true,
} as const;

/** Inclusive price bounds in dollars; either may be left out or null. */
export class PlanPriceRangeDto implements NumberRange {
  @ApiPropertyOptional(PRICE_BOUND)
  @IsOptional()
  @IsAmount(undefined, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor })
  from?: number | null;

  @ApiPropertyOptional(PRICE_BOUND)
  @IsOptional()
  @IsAmount(undefined, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor })
  to?: number | null;
}

/** `POST /payment-plans/search`: paging and sorting plus the packages filters (docs/api.md, Searching and paging). */
export class SearchPlansRequestDto extends SearchRequestDto implements PlanSearchRequest {
  @ApiPropertyOptional(sortsProperty('paymentPlans'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({ enum: PLAN_STATUSES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, {
    message: codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems }),
  })
  @IsIn(PLAN_STATUSES, { each: true })
  statuses?: PlanStatus[];

  @ApiPropertyOptional({ type: PlanPriceRangeDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => PlanPriceRangeDto)
  price?: PlanPriceRangeDto;
}
