import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Subscription } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SubscriptionIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { ChooseRenewalFundingCommand } from './choose-renewal-funding.command';
import { RenewalFundingRequestDto } from './choose-renewal-funding.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class ChooseRenewalFundingController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The owner chooses how the automatic renewal is paid: `BALANCE`, `BALANCE_THEN_CARD` or `CARD`
   * (docs/adr/0085-saved-cards.md). 409 `error.subscription.funding.not.recurrent` for one that does not renew by
   * itself, `error.subscription.ended`, `error.card.not.saved` for a card choice without a saved card,
   * `error.card.balance.payments.off` for a card choice while the operator's switch is off; another's subscription is
   * 404.
   */
  @Put(':id/renewal-funding')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  choose(
    @CurrentActor() actor: Actor,
    @Param('id', SubscriptionIdPipe) subscriptionId: string,
    @Body() request: RenewalFundingRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(new ChooseRenewalFundingCommand(actor, subscriptionId, request.funding, context));
  }
}
