import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiPaymentIdParam } from '../../../../platform/http';
import { PaymentIdPipe } from '../../../ledger';
import { RefundPaymentToBalanceCommand } from './refund-payment-to-balance.command';
import { RefundToBalanceRequestDto } from './refund-payment-to-balance.request.dto';
import { RefundToBalanceResponse } from './refund-payment-to-balance.response';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class RefundPaymentToBalanceController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Gives a SUCCESS SUBSCRIPTION_PAYMENT back to its client's balance, whole, once (409
   * `error.payment.already.refunded`; any other payment is 409 `error.payment.not.refundable`). The money comes back
   * from `revenue:subscriptions` as a REFUND payment; `subscriptionEnding` ends the subscription now or lets it run.
   * Admins only (ADR 0092).
   */
  @Post(':id/refund-to-balance')
  @HttpCode(200)
  @ApiPaymentIdParam('id')
  @ApiOkResponse({ type: RefundToBalanceResponse })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  refund(
    @CurrentActor() actor: Actor,
    @Param('id', PaymentIdPipe) paymentId: number,
    @Body() request: RefundToBalanceRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<RefundToBalanceResponse> {
    return this.commands.execute(
      new RefundPaymentToBalanceCommand(actor, paymentId, request.reason, request.subscriptionEnding, context),
    );
  }
}
