import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { Payment } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { PaymentIdPipe } from '../../infrastructure/params';
import { ChangePaymentStatusCommand } from './change-payment-status.command';
import { ChangePaymentStatusRequestDto } from './change-payment-status.request.dto';
import { ApiErrors, ApiPaymentIdParam } from '../../../../platform/http';
import { PaymentDto } from '../../infrastructure/ledger.responses';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class ChangePaymentStatusController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Manual payments only; leaving or reaching SUCCESS moves the money with a new transaction. An optional public note
   * tells the client why.
   */
  @Put(':id/status')
  @ApiPaymentIdParam('id')
  @ApiOkResponse({ type: PaymentDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  change(
    @CurrentActor() actor: Actor,
    @Param('id', PaymentIdPipe) paymentId: number,
    @Body() request: ChangePaymentStatusRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Payment> {
    return this.commands.execute(
      new ChangePaymentStatusCommand(
        actor,
        paymentId,
        request.status,
        request.confirmNegativeBalance ?? false,
        request.publicNote ?? null,
        context,
      ),
    );
  }
}
