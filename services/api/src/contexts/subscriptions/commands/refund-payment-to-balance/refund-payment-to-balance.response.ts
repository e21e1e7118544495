import { ApiProperty } from '@nestjs/swagger';
import { REFUND_SUBSCRIPTION_ENDINGS, type RefundSubscriptionEnding } from '@kupa/proto';

/** What a refund to the balance did: the REFUND payment, the payment it gave back, and the subscription's fate. */
export class RefundToBalanceResponse {
  @ApiProperty({ type: 'integer', description: 'The SUBSCRIPTION_PAYMENT given back' })
  refundedPaymentId: number;

  @ApiProperty({ type: 'integer', description: 'The REFUND payment that put the money on the balance' })
  refundPaymentId: number;

  @ApiProperty({ type: 'number', description: 'The amount given back, in dollars', example: 9.9 })
  amount: number;

  @ApiProperty({ format: 'uuid' })
  subscriptionId: string;

  @ApiProperty({ enum: REFUND_SUBSCRIPTION_ENDINGS })
  subscriptionEnding: RefundSubscriptionEnding;
}
