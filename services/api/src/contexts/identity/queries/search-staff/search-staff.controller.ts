import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Page, User } from '@kupa/proto';
import { ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { UserPageDto } from '../../infrastructure/http/identity.responses';
import { SearchStaffQuery } from './search-staff.query';
import { SearchStaffRequestDto } from './search-staff.request.dto';

/** The staff list (ADR 0078): admins administer staff accounts, so only they list them. */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class SearchStaffController {
  constructor(private readonly queries: QueryBus) {}

  @Post('staff/search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: UserPageDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @HttpCode(200)
  search(@Body() request: SearchStaffRequestDto): Promise<Page<User>> {
    return this.queries.execute(new SearchStaffQuery(request));
  }
}
