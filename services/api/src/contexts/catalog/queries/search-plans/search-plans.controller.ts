import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Page, type Plan, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { PlanPageDto } from '../../infrastructure/catalog.responses';
import { SearchPlansQuery } from './search-plans.query';
import { SearchPlansRequestDto } from './search-plans.request.dto';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class SearchPlansController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: PlanPageDto })
  @ApiErrors(400, 401, 403)
  @Roles(...USER_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'Search packages: staff see all, clients and ambassadors ACTIVE ones only' })
  search(@CurrentActor() actor: Actor, @Body() request: SearchPlansRequestDto): Promise<Page<Plan>> {
    return this.queries.execute(new SearchPlansQuery(actor, request));
  }
}
