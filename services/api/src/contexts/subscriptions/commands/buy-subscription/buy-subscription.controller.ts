import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Subscription } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader, parseIdempotencyKey } from '../../../../platform/idempotency';
import { PlanIdPipe } from '../../infrastructure/params';
import { SubscriptionDto } from '../../infrastructure/subscriptions.responses';
import { BuySubscriptionCommand } from './buy-subscription.command';
import { BuySubscriptionRequestDto } from './buy-subscription.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class BuySubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Buys an ACTIVE package with the balance, less the buyer's referral discount or a promo code's, whichever takes
   * more off (docs/adr/0088-promo-codes.md): the SUBSCRIPTION_PAYMENT, the debit, the PENDING subscription and the
   * code's use in one append. 409 `error.insufficient.balance`, `error.payment.plan.not.active`,
   * `error.login.already.exists`, the code's refusals (`error.promo.code.*`); 404 `error.payment.plan.not.found`,
   * `error.promo.code.not.found`.
   */
  @Post('balance/payment-plans/:planId')
  @ApiUuidParam('planId')
  @ApiCreatedResponse({
    type: SubscriptionDto,
    description: 'The PENDING subscription; a repeat with the same `Idempotency-Key` answers the first one',
  })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  @AcceptsIdempotencyKey()
  buy(
    @CurrentActor() actor: Actor,
    @Param('planId', PlanIdPipe) planId: string,
    @Body() request: BuySubscriptionRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Subscription> {
    const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
    return this.commands.execute(new BuySubscriptionCommand(actor, planId, request, idempotencyKey, context));
  }
}
