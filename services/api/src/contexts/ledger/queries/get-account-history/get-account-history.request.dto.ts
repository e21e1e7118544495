import { ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS } from '@kupa/proto';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { codeMessage, IsoDateTimeField, OptionalField, PAGE_MAX } from '../../../../platform/http';

/** The query string of `GET /ledger/accounts/{account}/history`; numbers arrive as text and are converted here. */
export class GetAccountHistoryRequestDto {
  /** A calendar day means its first instant (UTC). */
  @IsoDateTimeField()
  asOf?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: PAGE_MAX, default: LIMITS.pageDefault })
  @OptionalField()
  @Type(() => Number)
  @IsInt({ message: codeMessage('error.validation.integer') })
  @Min(0)
  @Max(PAGE_MAX)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.pageSizeMax,
    default: LIMITS.pageSizeDefault,
  })
  @OptionalField()
  @Type(() => Number)
  @IsInt({ message: codeMessage('error.validation.integer') })
  @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
  @Max(LIMITS.pageSizeMax, { message: codeMessage('error.validation.page.size', { max: LIMITS.pageSizeMax }) })
  size?: number;
}
