import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { PAYMENT_STATUSES, type PaymentStatus } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import {
  CashierSettings,
  IPN_SECURITY_SCHEME,
  IPN_SIGNATURE_HEADER,
  isValidIpnSignature,
} from '../../../../platform/cashier';
import { ApiError, ApiErrors } from '../../../../platform/http';
import { CashierDeposits } from '../../application/cashier/cashier-deposits';

export class CashierIpnAnswerDto {
  @ApiProperty({ type: 'integer', minimum: 1 })
  paymentId: number;

  @ApiProperty({ enum: PAYMENT_STATUSES, description: "The deposit's status after the notification" })
  status: PaymentStatus;

  @ApiProperty({ description: 'Dollars this notification put on the balance (0 for a repeat)' })
  credited: number;
}

/**
 * The cashier's notifications (IPN). Public, because the provider has no account with us, but verified: an IPN
 * without a valid `x-nowpayments-sig` is refused and changes nothing. A valid one only tells us which provider
 * payment to ask about: the money comes from the provider's own answer to `GET /v1/payment/{id}`, never from the
 * notification's body (docs/adr/0028-crypto-cashier.md).
 */
@ApiTags('payments')
@Public()
@Controller('payments/crypto')
export class ReceiveCashierIpnController {
  constructor(
    private readonly settings: CashierSettings,
    private readonly deposits: CashierDeposits,
  ) {}

  @Post('ipn')
  @HttpCode(200)
  @ApiSecurity(IPN_SECURITY_SCHEME)
  @ApiHeader({ name: IPN_SIGNATURE_HEADER, required: true, description: 'Hex HMAC-SHA512 of the body, keys sorted' })
  @ApiOkResponse({ type: CashierIpnAnswerDto })
  @ApiBody({
    description: "The provider's payment as NOWPayments posts it; only `payment_id` is read, once the signature holds",
    schema: { type: 'object', additionalProperties: true, properties: { payment_id: { type: 'integer' } } },
  })
  @ApiErrors(400, 401, 404, 409, 503)
  async receive(
    @Headers(IPN_SIGNATURE_HEADER) signature: string | undefined,
    @Body() body: unknown,
    @ReqContext() context: RequestContext,
  ): Promise<CashierIpnAnswerDto> {
    if (!isValidIpnSignature(body, signature, this.settings.ipnSecret))
      throw new ApiError('error.cashier.signature.invalid');
    const providerPaymentId = (body as { payment_id?: unknown } | null)?.payment_id;
    if (
      (typeof providerPaymentId !== 'number' && typeof providerPaymentId !== 'string') ||
      !/^[0-9A-Za-z_-]{1,64}$/.test(String(providerPaymentId))
    )
      throw new ApiError('error.cashier.notification.invalid');
    const outcome = await this.deposits.checkProviderPayment(String(providerPaymentId), 'IPN', context);
    return { paymentId: outcome.paymentId, status: outcome.status, credited: outcome.creditedMinor / 100 };
  }
}
