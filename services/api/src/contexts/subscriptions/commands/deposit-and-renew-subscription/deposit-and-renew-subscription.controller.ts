import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { type CryptoDepositResponse, parseAmountToMinor } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { assert } from '../../../../kernel';
import { ApiErrors } from '../../../../platform/http';
import { CryptoDepositResponseDto } from '../../../ledger';
import { DepositAndRenewSubscriptionCommand } from './deposit-and-renew-subscription.command';
import { DepositAndRenewSubscriptionRequestDto } from './deposit-and-renew-subscription.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments/crypto')
export class DepositAndRenewSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Opens a crypto deposit of what renewing one's own subscription costs now (the price as bought less the referral
   * discount, at least the cashier's minimum deposit) that renews it once the money arrives, by the renewal's rules
   * at that moment. Refused at once when a renewal now would be: 409 `error.subscription.already.renewed`,
   * `error.subscription.not.renewable`, `error.subscription.ended`; another's subscription is 404. An `amount` the
   * client was shown that is not what the deposit needs now (the price less the discount, plus any debt) is 409
   * `error.renewal.amount.changed`, with the amount it needs. And like any
   * deposit: 400 `error.deposit.amount.out.of.range`, 429 `error.cashier.too.many.pending`, 503
   * `error.cashier.unavailable`.
   */
  @Post('deposit-and-renew-subscription')
  @ApiCreatedResponse({ type: CryptoDepositResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  depositAndRenew(
    @CurrentActor() actor: Actor,
    @Body() request: DepositAndRenewSubscriptionRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<CryptoDepositResponse> {
    return this.commands.execute(
      new DepositAndRenewSubscriptionCommand(
        actor,
        request.subscriptionId,
        request.method,
        request.amount === undefined ? null : shownAmountMinor(request.amount),
        context,
        request.promoCode,
      ),
    );
  }
}

function shownAmountMinor(amount: number): number {
  const parsed = parseAmountToMinor(amount);
  assert(parsed.ok, 'the DTO accepted only valid amounts');
  return parsed.amountMinor;
}
