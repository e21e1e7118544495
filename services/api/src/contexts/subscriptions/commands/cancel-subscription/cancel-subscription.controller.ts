import { Controller, Delete, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Subscription, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { CancelSubscriptionCommand } from './cancel-subscription.command';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class CancelSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Cancels at the end of the period: it stays as it is until its end date, is never renewed, then ends CANCELED.
   * Staff, or the owner (another's is 404); a trial cannot be cancelled (409 `error.trial.cannot.be.cancelled`).
   */
  @Delete(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto, description: 'The subscription, with `cancelAtPeriodEnd`' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles(...USER_ROLES)
  cancel(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(new CancelSubscriptionCommand(actor, subscriptionId, context));
  }
}
