import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { Payment } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiError, ApiErrors, ApiPaymentIdParam } from '../../../../platform/http';
import { PaymentIdPipe } from '../../infrastructure/params';
import { paymentAudienceOf } from '../../queries/payment-rows/payment-query';
import { PaymentReader } from './payment-reader';
import { PaymentDto } from '../../infrastructure/ledger.responses';
import { fullNameOf, UserReader } from '../../../identity';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class GetPaymentController {
  constructor(
    private readonly payments: PaymentReader,
    private readonly users: UserReader,
  ) {}

  /**
   * Admins read any payment; clients and ambassadors their own, without the internal comment or staff e-mails, and
   * another's answers like a missing one.
   */
  @Get(':id')
  @ApiPaymentIdParam('id')
  @ApiOkResponse({ type: PaymentDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'CLIENT', 'AMBASSADOR')
  async get(@CurrentActor() actor: Actor, @Param('id', PaymentIdPipe) paymentId: number): Promise<Payment> {
    const payment = await this.payments.find(paymentId, paymentAudienceOf(actor.role));
    if (!payment || (actor.role !== 'ADMIN' && payment.userUuid !== actor.userUuid))
      throw new ApiError('error.payment.not.found');
    return this.withCounterparty(payment);
  }

  /**
   * A transfer names the other side as they entered their name, read now: the profile ID alone means nothing to a
   * person, and their e-mail and uuid are not the other client's to see (docs/adr/0077-details-people-can-read.md).
   */
  private async withCounterparty(payment: Payment): Promise<Payment> {
    const profileId =
      payment.type === 'TRANSFER_OUT'
        ? payment.recipientProfileId
        : payment.type === 'TRANSFER_IN'
          ? payment.senderProfileId
          : null;
    if (profileId === null) return payment;
    const counterparty = await this.users.findByProfileId(profileId);
    return { ...payment, counterpartyName: counterparty ? fullNameOf(counterparty) || null : null };
  }
}
