import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkKeyword,
  LIMITS,
  type UserRole,
  USER_ROLES,
  type UserSearchRequest,
  type UserStatus,
  USER_STATUSES,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, ValidateNested } from 'class-validator';
import {
  codeMessage,
  DateRangeDto,
  OptionalField,
  SatisfiesRule,
  SearchRequestDto,
  type SortDto,
  sortsProperty,
} from '../../../../platform/http';

const maxItems = codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems });

export class SearchUsersRequestDto extends SearchRequestDto implements UserSearchRequest {
  @ApiPropertyOptional(sortsProperty('users'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({ maxLength: LIMITS.keywordMaxLength, description: 'Matches e-mail, names and profile ID' })
  @OptionalField()
  @SatisfiesRule(checkKeyword)
  keyWord?: string;

  @ApiPropertyOptional({ enum: USER_STATUSES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(USER_STATUSES, { each: true })
  statuses?: UserStatus[];

  @ApiPropertyOptional({ enum: USER_ROLES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(USER_ROLES, { each: true })
  roles?: UserRole[];

  @ApiPropertyOptional({ type: DateRangeDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  registrationDate?: DateRangeDto;
}
