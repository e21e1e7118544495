import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { Payment } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader, moneyRequestInputs } from '../../infrastructure/money-requests';
import { TransferBalanceCommand } from './transfer-balance.command';
import { TransferBalanceRequestDto } from './transfer-balance.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { PaymentDto } from '../../infrastructure/ledger.responses';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class TransferBalanceController {
  constructor(private readonly commands: CommandBus) {}

  /** Moves balance to another active user; answers the sender's TRANSFER_OUT payment. */
  @Post('transfer')
  @ApiCreatedResponse({
    type: PaymentDto,
    description: "The sender's TRANSFER_OUT; a repeat with the same `Idempotency-Key` answers the first one",
  })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  @AcceptsIdempotencyKey()
  transfer(
    @CurrentActor() actor: Actor,
    @Body() request: TransferBalanceRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    const { idempotencyKey, amountMinor } = moneyRequestInputs(idempotencyKeyHeader, request.amount);
    return this.commands.execute(
      new TransferBalanceCommand(actor, request.recipient, amountMinor, idempotencyKey, context),
    );
  }
}
