import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUDIT_OPERATION_TYPES,
  AUDIT_TARGET_TYPES,
  type AuditLogSearchRequest,
  type AuditOperationType,
  type AuditTargetType,
  LIMITS,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength, ValidateNested } from 'class-validator';
import {
  codeMessage,
  DateRangeDto,
  OptionalField,
  SearchRequestDto,
  type SortDto,
  sortsProperty,
} from '../../../../platform/http';

const maxItems = codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems });

/** The activity-log filters (docs/api.md, Searching and paging) on top of the shared paging and sorting. */
export class SearchAuditLogsRequestDto extends SearchRequestDto implements AuditLogSearchRequest {
  @ApiPropertyOptional(sortsProperty('auditLogs'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({ type: DateRangeDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  createdAt?: DateRangeDto;

  @ApiPropertyOptional({
    enum: AUDIT_TARGET_TYPES,
    isArray: true,
    maxItems: LIMITS.filterListMaxItems,
    description: 'Matches the target or the parent type',
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(AUDIT_TARGET_TYPES, { each: true })
  targetAndParentTypes?: AuditTargetType[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: LIMITS.textMaxLength },
    maxItems: LIMITS.filterListMaxItems,
    description: "Matches the target, the parent or the correlation id (a bulk batch finds its targets' entries)",
  })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsString({ each: true })
  @MaxLength(LIMITS.textMaxLength, {
    each: true,
    message: codeMessage('error.validation.max.length', { max: LIMITS.textMaxLength }),
  })
  targetAndParentIds?: string[];

  @ApiPropertyOptional({ enum: AUDIT_OPERATION_TYPES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(AUDIT_OPERATION_TYPES, { each: true })
  operationTypes?: AuditOperationType[];
}
