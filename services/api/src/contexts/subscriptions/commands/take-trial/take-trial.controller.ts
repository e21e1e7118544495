import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Subscription } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/params';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { TakeTrialCommand } from './take-trial.command';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class TakeTrialController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The free three-day trial, once per user and not after declining it (409 `error.trial.already.used`); only on
   * one's own account (any other id is 404).
   */
  @Post('users/:userUuid/trial')
  @HttpCode(201)
  @ApiUuidParam('userUuid')
  @ApiCreatedResponse({ type: SubscriptionDto, description: 'The PENDING trial subscription' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  take(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Body() request: LoginAndPasswordDto,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(new TakeTrialCommand(actor, userUuid, request, context));
  }
}
