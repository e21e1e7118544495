import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { CardCheckoutResponse } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { CardCheckoutResponseDto } from '../../infrastructure/ledger.responses';
import { moneyRequestInputs } from '../../infrastructure/money-requests';
import { OpenCardDepositCommand } from './open-card-deposit.command';
import { OpenCardDepositRequestDto } from './open-card-deposit.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments/card')
export class OpenCardDepositController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Tops the balance up by card (docs/adr/0082-card-top-ups.md): opens a checkout at the card provider and records
   * the deposit as PENDING (aggregator STRIPE, method CARD); the provider's verified webhook credits it. Refused at
   * once: 409 `error.card.balance.payments.off` when the operator turned card balance payments off, 503
   * `error.card.provider.unavailable` without a card provider, 400 `error.deposit.amount.out.of.range`.
   */
  @Post('deposit')
  @ApiCreatedResponse({ type: CardCheckoutResponseDto })
  @ApiErrors(400, 401, 403, 409, 429, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  deposit(
    @CurrentActor() actor: Actor,
    @Body() request: OpenCardDepositRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<CardCheckoutResponse> {
    const { amountMinor } = moneyRequestInputs(undefined, request.amount);
    return this.commands.execute(new OpenCardDepositCommand(actor, amountMinor, context));
  }
}
