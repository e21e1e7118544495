import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import { type Payment, parseAmountToMinor } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { assert } from '../../../../platform/decider/decider';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../../infrastructure/idempotency-keys';
import { TransferBalanceCommand } from './transfer-balance.command';
import { TransferBalanceRequestDto } from './transfer-balance.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class TransferBalanceController {
  constructor(private readonly commands: CommandBus) {}

  /** Moves balance to another active user; answers the sender's TRANSFER_OUT payment. */
  @Post('transfer')
  @HttpCode(201)
  @Roles('CLIENT', 'AMBASSADOR')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A repeat answers the first response' })
  transfer(
    @CurrentActor() actor: Actor,
    @Body() request: TransferBalanceRequestDto,
    @Headers(IDEMPOTENCY_KEY_HEADER) idempotencyKey: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    const key = parseIdempotencyKey(idempotencyKey);
    const amount = parseAmountToMinor(request.amount);
    assert(amount.ok, 'the DTO accepted only valid amounts');
    return this.commands.execute(
      new TransferBalanceCommand(actor, request.recipient, amount.amountMinor, key, context),
    );
  }
}
