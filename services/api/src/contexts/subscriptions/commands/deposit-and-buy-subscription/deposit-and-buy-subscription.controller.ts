import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { CryptoDepositResponse } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { CryptoDepositResponseDto } from '../../../ledger';
import { PlanIdPipe } from '../../infrastructure/params';
import { DepositAndBuySubscriptionCommand } from './deposit-and-buy-subscription.command';
import { DepositAndBuySubscriptionRequestDto } from './deposit-and-buy-subscription.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments/crypto')
export class DepositAndBuySubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Opens a crypto deposit of the package's price less the caller's referral discount (at least the cashier's
   * minimum deposit) that buys the package once the money arrives: the payment's `purchase` says WAITING, then DONE
   * with the subscription, or FAILED with why (the money then stays on the balance). Refused at once like a purchase
   * with the balance: 404 `error.payment.plan.not.found`, 409 `error.payment.plan.not.active`,
   * `error.login.already.exists`; and like any deposit: 400 `error.deposit.amount.out.of.range`, 429
   * `error.cashier.too.many.pending`, 503 `error.cashier.unavailable`.
   */
  @Post('deposit-and-buy-subscription/payment-plans/:planId')
  @ApiUuidParam('planId', 'The package to buy')
  @ApiCreatedResponse({ type: CryptoDepositResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  depositAndBuy(
    @CurrentActor() actor: Actor,
    @Param('planId', PlanIdPipe) planId: string,
    @Body() request: DepositAndBuySubscriptionRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<CryptoDepositResponse> {
    return this.commands.execute(new DepositAndBuySubscriptionCommand(actor, planId, request, context));
  }
}
