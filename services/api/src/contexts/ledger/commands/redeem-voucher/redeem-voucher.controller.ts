import { Body, Controller, Header, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { VoucherRedemption } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { VOUCHER_REDEMPTION_LIMITS } from '../../infrastructure/rate-limits';
import { VoucherRedemptionDto } from '../../infrastructure/voucher.responses';
import { RedeemVoucherCommand } from './redeem-voucher.command';
import { RedeemVoucherRequestDto } from './redeem-voucher.request.dto';

@ApiTags('vouchers')
@ApiBearerAuth()
@Controller('vouchers')
export class RedeemVoucherController {
  constructor(private readonly commands: CommandBus) {}

  @Post('redeem')
  @ApiOperation({
    summary:
      "Redeem a voucher code: money into the signed-in client's balance, days onto their subscription of the " +
      'package (or a new one, given a login and password); a code redeems once, ever',
  })
  @ApiCreatedResponse({ type: VoucherRedemptionDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  @Roles('CLIENT', 'AMBASSADOR')
  @RateLimit(VOUCHER_REDEMPTION_LIMITS)
  @Header('Cache-Control', 'no-store')
  redeem(
    @CurrentActor() actor: Actor,
    @Body() request: RedeemVoucherRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<VoucherRedemption> {
    const { code, login, password } = request;
    const newSubscription = login !== undefined && password !== undefined ? { login, password } : null;
    return this.commands.execute(new RedeemVoucherCommand(actor, code, newSubscription, context));
  }
}
