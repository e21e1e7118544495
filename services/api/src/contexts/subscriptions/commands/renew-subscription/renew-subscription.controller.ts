import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Subscription } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { RenewSubscriptionCommand } from './renew-subscription.command';
import { RenewSubscriptionRequestDto } from './renew-subscription.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class RenewSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * One more period from the balance for one's own running subscription: the new end is max(now, end) + the
   * duration. 409 `error.subscription.already.renewed` when it is already paid a full period ahead,
   * `error.subscription.not.renewable` for a trial or a PENDING one, `error.subscription.ended`,
   * `error.insufficient.balance`, a promo code's refusals (`error.promo.code.*`, docs/adr/0088-promo-codes.md);
   * another's subscription, or an unknown code, is 404.
   */
  @Post('renew/balance')
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  renew(
    @CurrentActor() actor: Actor,
    @Body() request: RenewSubscriptionRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    return this.commands.execute(
      new RenewSubscriptionCommand(actor, request.subscriptionId, context, null, request.promoCode),
    );
  }
}
