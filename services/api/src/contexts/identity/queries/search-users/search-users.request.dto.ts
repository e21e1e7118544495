import { ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS, type UserRole, USER_ROLES, type UserSearchRequest } from '@kupa/proto';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, ValidateNested } from 'class-validator';
import { DateRangeDto, OptionalField, type SortDto, sortsProperty } from '../../../../platform/http';
import { filterListMaxItemsMessage, UserSearchFiltersDto } from '../user-search-filters.dto';

export class SearchUsersRequestDto extends UserSearchFiltersDto implements UserSearchRequest {
  @ApiPropertyOptional(sortsProperty('users'))
  override sorts?: SortDto[];

  @ApiPropertyOptional({ enum: USER_ROLES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: filterListMaxItemsMessage })
  @IsIn(USER_ROLES, { each: true })
  roles?: UserRole[];

  @ApiPropertyOptional({ type: DateRangeDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => DateRangeDto)
  registrationDate?: DateRangeDto;
}
