import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Subscription, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { GetSubscriptionQuery } from './get-subscription.query';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class GetSubscriptionController {
  constructor(private readonly queries: QueryBus) {}

  /** Staff read any subscription; clients and ambassadors their own (another's is 404). */
  @Get(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles(...USER_ROLES)
  get(@CurrentActor() actor: Actor, @Param('id', SubscriptionIdPipe) subscriptionId: string): Promise<Subscription> {
    return this.queries.execute(new GetSubscriptionQuery(actor, subscriptionId));
  }
}
