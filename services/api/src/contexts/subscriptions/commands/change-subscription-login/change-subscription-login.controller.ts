import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Subscription, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { ChangeSubscriptionLoginRequestDto } from '../../infrastructure/subscription-requests.dto';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { ChangeSubscriptionLoginCommand } from './change-subscription-login.command';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class ChangeSubscriptionLoginController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Staff, or the owner (another's is 404). 409 `error.login.already.exists` for a login another live subscription
   * holds, `error.trial.login.cannot.be.changed`, `error.subscription.ended`.
   */
  @Put(':id/login')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles(...USER_ROLES)
  change(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @Body() request: ChangeSubscriptionLoginRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(new ChangeSubscriptionLoginCommand(actor, subscriptionId, request.login, context));
  }
}
