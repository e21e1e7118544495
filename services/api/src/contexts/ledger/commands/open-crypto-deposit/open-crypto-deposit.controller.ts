import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { CryptoDepositResponse } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { CryptoDepositResponseDto } from '../../infrastructure/ledger.responses';
import { moneyRequestInputs } from '../../infrastructure/money-requests';
import { OpenCryptoDepositCommand } from './open-crypto-deposit.command';
import { OpenCryptoDepositRequestDto } from './open-crypto-deposit.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments/crypto')
export class OpenCryptoDepositController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Opens an invoice at the crypto cashier and records the deposit as PENDING (aggregator CASHIER); the balance is
   * credited when the cashier reports the money (`POST /payments/crypto/ipn`).
   */
  @Post('deposit')
  @ApiCreatedResponse({ type: CryptoDepositResponseDto })
  @ApiErrors(400, 401, 403, 429, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  deposit(
    @CurrentActor() actor: Actor,
    @Body() request: OpenCryptoDepositRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<CryptoDepositResponse> {
    const { amountMinor } = moneyRequestInputs(undefined, request.amount);
    return this.commands.execute(new OpenCryptoDepositCommand(actor, amountMinor, request.method, context));
  }
}
