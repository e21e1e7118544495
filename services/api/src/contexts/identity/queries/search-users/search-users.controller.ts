import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { Page, User } from '@kupa/proto';
import { ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { SearchUsersQuery } from './search-users.query';
import { SearchUsersRequestDto } from './search-users.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { UserPageDto } from '../../infrastructure/http/identity.responses';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class SearchUsersController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: UserPageDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(200)
  search(@Body() request: SearchUsersRequestDto): Promise<Page<User>> {
    return this.queries.execute(new SearchUsersQuery(request));
  }
}
