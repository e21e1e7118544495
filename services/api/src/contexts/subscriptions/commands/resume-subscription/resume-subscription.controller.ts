import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Subscription, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { ResumeSubscriptionCommand } from './resume-subscription.command';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class ResumeSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Withdraws a cancellation before the end date: the subscription runs on, and renews by itself again when its
   * package is recurrent and its renewal was not stopped. Staff, or the owner (another's is 404), as for cancelling.
   * 409 `error.subscription.not.cancelled` when it is not cancelled, `error.subscription.resume.too.late` at or after
   * its end date, `error.subscription.ended` once it ended.
   */
  @Post(':id/resume')
  @HttpCode(200)
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto, description: 'The subscription, `cancelAtPeriodEnd` false again' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles(...USER_ROLES)
  resume(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(new ResumeSubscriptionCommand(actor, subscriptionId, context));
  }
}
