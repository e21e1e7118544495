import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkKeyword,
  LIMITS,
  type StaffRole,
  STAFF_ROLES,
  type StaffSearchRequest,
  type UserStatus,
  USER_STATUSES,
} from '@kupa/proto';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn } from 'class-validator';
import {
  codeMessage,
  OptionalField,
  SatisfiesRule,
  SearchRequestDto,
  type SortDto,
  sortsProperty,
} from '../../../../platform/http';

const maxItems = codeMessage('error.validation.max.items', { maxItems: LIMITS.filterListMaxItems });

/** The staff list's search: staff roles only, so a customer role in `roles` is a 400 rather than an empty page. */
export class SearchStaffRequestDto extends SearchRequestDto implements StaffSearchRequest {
  @ApiPropertyOptional(sortsProperty('staff'))
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

  @ApiPropertyOptional({ enum: STAFF_ROLES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: maxItems })
  @IsIn(STAFF_ROLES, { each: true })
  roles?: StaffRole[];

  @ApiPropertyOptional({ description: 'Only accounts whose two-factor sign-in is on (true) or off (false)' })
  @OptionalField()
  @IsBoolean()
  twoFactorEnabled?: boolean;
}
