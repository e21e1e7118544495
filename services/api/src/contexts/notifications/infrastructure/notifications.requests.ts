import { ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS, type NotificationPageRequest } from '@kupa/proto';
import { IsInt, Max, Min } from 'class-validator';
import { codeMessage, OptionalField, PAGE_MAX } from '../../../platform/http';

/** A page of notifications, newest first (no filters or sorts: the list is short and read in one order). */
export class NotificationPageRequestDto implements NotificationPageRequest {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: PAGE_MAX, default: LIMITS.pageDefault })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(PAGE_MAX)
  page?: number = LIMITS.pageDefault;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault })
  @OptionalField()
  @IsInt()
  @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
  @Max(LIMITS.pageSizeMax, { message: codeMessage('error.validation.page.size', { max: LIMITS.pageSizeMax }) })
  size?: number = LIMITS.pageSizeDefault;
}
