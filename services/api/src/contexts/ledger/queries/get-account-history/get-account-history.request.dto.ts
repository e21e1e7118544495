import { ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS } from '@kupa/proto';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { codeMessage } from '../../../../platform/http';

/** The query string of `GET /ledger/accounts/{account}/history`; numbers arrive as text and are converted here. */
export class GetAccountHistoryRequestDto {
  @ApiPropertyOptional({ description: 'The instant (ISO-8601); now when absent' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: codeMessage('error.validation.invalid.format') })
  asOf?: string;

  @ApiPropertyOptional({ default: LIMITS.pageDefault })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: codeMessage('error.validation.integer') })
  @Min(0)
  @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ default: LIMITS.pageSizeDefault, maximum: LIMITS.pageSizeMax })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: codeMessage('error.validation.integer') })
  @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
  @Max(LIMITS.pageSizeMax, { message: codeMessage('error.validation.page.size', { max: LIMITS.pageSizeMax }) })
  size?: number;
}
