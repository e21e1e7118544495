import { ApiPropertyOptional } from '@nestjs/swagger';
import { checkKeyword, LIMITS, type UserStatus, USER_STATUSES } from '@kupa/proto';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { codeMessage, OptionalField, SatisfiesRule, SearchRequestDto } from '../../../platform/http';

export const filterListMaxItemsMessage = codeMessage('error.validation.max.items', {
  maxItems: LIMITS.filterListMaxItems,
});

/** What every search of user accounts filters by, whatever roles it covers (the clients' and the staff's lists). */
export class UserSearchFiltersDto extends SearchRequestDto {
  @ApiPropertyOptional({ maxLength: LIMITS.keywordMaxLength, description: 'Matches e-mail, names and profile ID' })
  @OptionalField()
  @SatisfiesRule(checkKeyword)
  keyWord?: string;

  @ApiPropertyOptional({ enum: USER_STATUSES, isArray: true, maxItems: LIMITS.filterListMaxItems })
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(LIMITS.filterListMaxItems, { message: filterListMaxItemsMessage })
  @IsIn(USER_STATUSES, { each: true })
  statuses?: UserStatus[];
}
