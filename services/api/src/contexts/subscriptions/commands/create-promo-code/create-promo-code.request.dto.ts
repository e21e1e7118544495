import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkUuid,
  type CreatePromoCodeRequest,
  PROMO_CODE_DISCOUNT_KINDS,
  PROMO_CODE_USES,
  type PromoCodeDiscountKind,
  type PromoCodeUse,
} from '@kupa/proto';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  Max,
  Min,
} from 'class-validator';
import { AMOUNT_SCHEMA, IsAmount, OptionalField, SatisfiesRule } from '../../../../platform/http';

/** `POST /promo-codes` (docs/adr/0088-promo-codes.md): the code and its terms; absent limits are no limit. */
export class CreatePromoCodeRequestDto implements CreatePromoCodeRequest {
  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{3,32}$', description: 'Stored in capitals; codes are case-insensitive' })
  @IsString()
  code: string;

  @ApiProperty({ enum: PROMO_CODE_DISCOUNT_KINDS })
  @IsIn(PROMO_CODE_DISCOUNT_KINDS)
  discountKind: PromoCodeDiscountKind;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 99, description: 'For PERCENT' })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(99)
  percent?: number;

  @ApiPropertyOptional({ ...AMOUNT_SCHEMA, description: 'Dollars off, for AMOUNT' })
  @OptionalField()
  @IsAmount()
  amount?: number;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...PROMO_CODE_USES] }, minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(PROMO_CODE_USES, { each: true })
  appliesTo: PromoCodeUse[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', format: 'uuid' }, description: 'Absent: all' })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @SatisfiesRule(checkUuid, { each: true })
  planIds?: string[];

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalField()
  @IsISO8601({ strict: true })
  validFrom?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'The first instant it no longer applies' })
  @OptionalField()
  @IsISO8601({ strict: true })
  validUntil?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUses?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUsesPerClient?: number;

  @ApiPropertyOptional({ default: false })
  @OptionalField()
  @IsBoolean()
  newClientsOnly?: boolean;
}
