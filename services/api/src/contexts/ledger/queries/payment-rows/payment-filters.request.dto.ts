import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  LIMITS,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  type PaymentAggregator,
  type PaymentMethod,
  type PaymentStatus,
  type PaymentType,
  checkKeyword,
  normalizePromoCode,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import {
  codeMessage,
  DateRangeDto,
  OptionalField,
  SatisfiesRule,
  SortDto,
  sortsProperty,
} from '../../../../platform/http';

const maxItems = codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems });
/** Payment ids come from a PostgreSQL bigint sequence; a larger filter value could never match. */
const PAYMENT_ID_MAX = Number.MAX_SAFE_INTEGER;

// The mixin's base only needs a constructor; Nest and class-validator read the decorators from the prototype chain.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor = new (...args: any[]) => object;

/**
 * The payments filters (docs/api.md, Searching and paging), shared by the search (with paging) and the export
 * (without): one definition, so the CSV always holds exactly what the list shows.
 */
export function WithPaymentFilters<Base extends Constructor>(base: Base) {
  class PaymentFilters extends base {
    @ApiPropertyOptional(sortsProperty('payments'))
    sorts?: SortDto[];

    @ApiPropertyOptional({
      maxLength: LIMITS.keywordMaxLength,
      description:
        `Matches e-mail, comment, profile ids, id. Over every client's payments: at least ${LIMITS.keywordMinLength} ` +
        'characters, or a shorter run of digits, which is that payment number; without createdDate, only the latest ' +
        `${LIMITS.keywordSearchRecentPayments.toLocaleString('en-US')} payments (ADR 0115)`,
    })
    @OptionalField()
    @IsString()
    @SatisfiesRule(checkKeyword)
    keyWord?: string;

    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: PAYMENT_ID_MAX, nullable: true })
    @IsOptional()
    @IsInt({ message: codeMessage('error.validation.integer') })
    @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
    @Max(PAYMENT_ID_MAX)
    id?: number | null;

    @ApiPropertyOptional({ enum: PAYMENT_STATUSES, isArray: true, maxItems: LIMITS.filterListMaxItems })
    @OptionalField()
    @IsArray()
    @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
    @IsIn(PAYMENT_STATUSES, { each: true })
    statuses?: PaymentStatus[];

    @ApiPropertyOptional({ enum: PAYMENT_METHODS, isArray: true, maxItems: LIMITS.filterListMaxItems })
    @OptionalField()
    @IsArray()
    @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
    @IsIn(PAYMENT_METHODS, { each: true })
    methods?: PaymentMethod[];

    @ApiPropertyOptional({ enum: PAYMENT_TYPES, isArray: true, maxItems: LIMITS.filterListMaxItems })
    @OptionalField()
    @IsArray()
    @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
    @IsIn(PAYMENT_TYPES, { each: true })
    types?: PaymentType[];

    @ApiPropertyOptional({ enum: PAYMENT_AGGREGATORS, isArray: true, maxItems: LIMITS.filterListMaxItems })
    @OptionalField()
    @IsArray()
    @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
    @IsIn(PAYMENT_AGGREGATORS, { each: true })
    aggregators?: PaymentAggregator[];

    @ApiPropertyOptional({ type: DateRangeDto, description: 'Inclusive; a date without a time covers that whole day' })
    @OptionalField()
    @ValidateNested()
    @Type(() => DateRangeDto)
    createdDate?: DateRangeDto;

    @ApiPropertyOptional({
      pattern: '^[A-Za-z0-9_-]{3,32}$',
      description: 'The payments that used this promo code (any case; docs/adr/0088-promo-codes.md)',
    })
    @OptionalField()
    @IsString()
    @SatisfiesRule((value) => (normalizePromoCode(value) ? null : { error: 'error.validation.invalid.format' }))
    promoCode?: string;
  }
  return PaymentFilters;
}

/** The sorts alone, for requests that have no paging (the export). */
export class PaymentSortsDto {
  @ApiPropertyOptional(sortsProperty('payments'))
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.sortsMaxItems, {
    message: codeMessage('error.validation.max.items', { maxItems: LIMITS.sortsMaxItems }),
  })
  @ValidateNested({ each: true })
  @Type(() => SortDto)
  sorts?: SortDto[] = [];
}

/** What the filters look like once validated, whichever request carried them. */
export interface PaymentFilters {
  keyWord?: string;
  id?: number | null;
  statuses?: PaymentStatus[];
  methods?: PaymentMethod[];
  types?: PaymentType[];
  aggregators?: PaymentAggregator[];
  createdDate?: { from?: string | null; to?: string | null };
  promoCode?: string;
  sorts?: SortDto[];
}
