import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { ChangeSubscriptionPasswordRequestDto } from '../../infrastructure/subscription-requests.dto';
import { ChangeSubscriptionPasswordCommand } from './change-subscription-password.command';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class ChangeSubscriptionPasswordController {
  constructor(private readonly commands: CommandBus) {}

  /** Staff, or the owner (another's is 404); the password is never returned. 409 `error.subscription.ended`. */
  @Put(':id/password')
  @HttpCode(204)
  @ApiUuidParam('id')
  @ApiNoContentResponse({ description: 'Changed; the streaming service is told by provisioning' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles(...USER_ROLES)
  async change(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @Body() request: ChangeSubscriptionPasswordRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(
      new ChangeSubscriptionPasswordCommand(actor, subscriptionId, request.password, context),
    );
  }
}
