import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { Payment } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader, parseIdempotencyKey } from '../../../../platform/idempotency';
import { moneyRequestInputs } from '../../infrastructure/money-requests';
import { RecordManualPaymentCommand } from './record-manual-payment.command';
import { RecordManualPaymentRequestDto } from './record-manual-payment.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { PaymentDto } from '../../infrastructure/ledger.responses';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class RecordManualPaymentController {
  constructor(private readonly commands: CommandBus) {}

  /** A manual deposit or payout, or a balance fix (`correction`); always aggregator MANUAL and status SUCCESS. */
  @Post()
  @ApiCreatedResponse({
    type: PaymentDto,
    description: 'The payment; a repeat with the same `Idempotency-Key` answers the first one',
  })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  @AcceptsIdempotencyKey()
  record(
    @CurrentActor() actor: Actor,
    @Body() request: RecordManualPaymentRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
    const amountMinor = request.amount === undefined ? null : moneyRequestInputs(undefined, request.amount).amountMinor;
    return this.commands.execute(
      new RecordManualPaymentCommand(
        actor,
        request.userUuid,
        amountMinor,
        request.action,
        request.comment,
        request.correction ?? false,
        request.publicNote ?? null,
        idempotencyKey,
        request.claimId ?? null,
        context,
      ),
    );
  }
}
