import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { CardCheckoutResponse } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { CardCheckoutResponseDto } from '../../../ledger';
import { PlanIdPipe } from '../../infrastructure/params';
import { CreateCardCheckoutCommand } from './create-card-checkout.command';
import { CreateCardCheckoutRequestDto } from './create-card-checkout.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('stripe')
export class CreateCardCheckoutController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Opens a card checkout of the package's price less the caller's referral discount that buys the package once
   * the card provider reports the money (docs/adr/0029-card-checkout.md): the payment's `purchase` says WAITING,
   * then DONE with the subscription, or FAILED with why (the money then stays on the balance). Refused at once: 503
   * `error.card.provider.unavailable` without a card provider, 404 `error.payment.plan.not.found`, 409
   * `error.payment.plan.not.active`, `error.package.cannot.be.bought.via.card.provider`,
   * `error.login.already.exists`.
   */
  @Post('create-checkout-session/payment-plans/:planId')
  @ApiUuidParam('planId', 'The package to buy')
  @ApiCreatedResponse({ type: CardCheckoutResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  createCheckout(
    @CurrentActor() actor: Actor,
    @Param('planId', PlanIdPipe) planId: string,
    @Body() request: CreateCardCheckoutRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<CardCheckoutResponse> {
    return this.commands.execute(new CreateCardCheckoutCommand(actor, planId, request, context));
  }
}
