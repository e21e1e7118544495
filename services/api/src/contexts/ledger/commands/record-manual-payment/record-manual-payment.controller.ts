import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import { type Payment, parseAmountToMinor } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { assert } from '../../../../platform/decider/decider';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from '../../infrastructure/idempotency-keys';
import { RecordManualPaymentCommand } from './record-manual-payment.command';
import { RecordManualPaymentRequestDto } from './record-manual-payment.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class RecordManualPaymentController {
  constructor(private readonly commands: CommandBus) {}

  /** A manual deposit or payout, or a balance fix (`correction`); always aggregator MANUAL and status SUCCESS. */
  @Post()
  @HttpCode(201)
  @Roles('ADMIN')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A repeat answers the first response' })
  record(
    @CurrentActor() actor: Actor,
    @Body() request: RecordManualPaymentRequestDto,
    @Headers(IDEMPOTENCY_KEY_HEADER) idempotencyKey: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    const key = parseIdempotencyKey(idempotencyKey);
    const amount = parseAmountToMinor(request.amount);
    assert(amount.ok, 'the DTO accepted only valid amounts');
    return this.commands.execute(
      new RecordManualPaymentCommand(
        actor,
        request.userUuid,
        amount.amountMinor,
        request.action,
        request.comment,
        request.correction ?? false,
        key,
        context,
      ),
    );
  }
}
