import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { type CustomerRole, CUSTOMER_ROLES, LIMITS } from '@kupa/proto';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { OptionalField } from '../../../platform/http';
import { SearchUsersRequestDto } from './search-users/search-users.request.dto';
import { filterListMaxItemsMessage } from './user-search-filters.dto';

/**
 * The staff clients list's filters without its paging, for a use case that acts on every client they match (a
 * broadcast, a bulk action). Picked from the list's own request so the two cannot drift apart; only customer roles,
 * so a staff role is a 400 rather than a silent empty selection.
 */
export class ClientFilterDto extends PickType(SearchUsersRequestDto, [
  'keyWord',
  'statuses',
  'registrationDate',
] as const) {
  @ApiPropertyOptional({ enum: CUSTOMER_ROLES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: filterListMaxItemsMessage })
  @IsIn(CUSTOMER_ROLES, { each: true })
  roles?: CustomerRole[];
}
