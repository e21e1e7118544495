import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Page, type Subscription, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { SubscriptionPageDto } from '../../infrastructure/subscriptions.responses';
import { SearchSubscriptionsQuery } from './search-subscriptions.query';
import { SearchSubscriptionsRequestDto } from './search-subscriptions.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class SearchSubscriptionsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: SubscriptionPageDto })
  @ApiErrors(400, 401, 403)
  @Roles(...USER_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'Search subscriptions: staff see all, clients and ambassadors their own' })
  search(@CurrentActor() actor: Actor, @Body() request: SearchSubscriptionsRequestDto): Promise<Page<Subscription>> {
    return this.queries.execute(new SearchSubscriptionsQuery(actor, request));
  }
}
