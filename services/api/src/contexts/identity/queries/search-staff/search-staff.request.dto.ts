import { ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS, type StaffRole, STAFF_ROLES, type StaffSearchRequest } from '@kupa/proto';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn } from 'class-validator';
import { OptionalField, type SortDto, sortsProperty } from '../../../../platform/http';
import { filterListMaxItemsMessage, UserSearchFiltersDto } from '../user-search-filters.dto';

/** The staff list's search: staff roles only, so a customer role in `roles` is a 400 rather than an empty page. */
export class SearchStaffRequestDto extends UserSearchFiltersDto implements StaffSearchRequest {
  @ApiPropertyOptional(sortsProperty('staff'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({ enum: STAFF_ROLES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: filterListMaxItemsMessage })
  @IsIn(STAFF_ROLES, { each: true })
  roles?: StaffRole[];

  @ApiPropertyOptional({ description: 'Only accounts whose two-factor sign-in is on (true) or off (false)' })
  @OptionalField()
  @IsBoolean()
  twoFactorEnabled?: boolean;
}
