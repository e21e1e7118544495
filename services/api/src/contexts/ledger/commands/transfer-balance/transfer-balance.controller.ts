import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { Payment } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader } from '../../../../platform/idempotency';
import { moneyRequestInputs } from '../../infrastructure/money-requests';
import { TransferBalanceCommand } from './transfer-balance.command';
import { TransferBalanceRequestDto } from './transfer-balance.request.dto';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { TRANSFER_RECIPIENT_LIMITS } from '../../infrastructure/rate-limits';
import { PaymentDto } from '../../infrastructure/ledger.responses';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class TransferBalanceController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Moves balance to another active client or ambassador; answers the sender's TRANSFER_OUT payment. A transfer to an
   * unknown recipient spends the recipient look-up's allowance (`TRANSFER_RECIPIENT_LIMITS`). With two-factor sign-in
   * on, a step-up call: a wrong or reused code spends the account's step-up allowance (`TwoFactorStepUp`).
   */
  @Post('transfer')
  @ApiCreatedResponse({
    type: PaymentDto,
    description: "The sender's TRANSFER_OUT; a repeat with the same `Idempotency-Key` answers the first one",
  })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  @Roles('CLIENT', 'AMBASSADOR')
  @RateLimit(TRANSFER_RECIPIENT_LIMITS)
  @AcceptsIdempotencyKey()
  transfer(
    @CurrentActor() actor: Actor,
    @Body() request: TransferBalanceRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    const { idempotencyKey, amountMinor } = moneyRequestInputs(idempotencyKeyHeader, request.amount);
    return this.commands.execute(
      new TransferBalanceCommand(actor, request.recipient, amountMinor, idempotencyKey, context, request.otpCode),
    );
  }
}
