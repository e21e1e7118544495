import { ApiProperty } from '@nestjs/swagger';
import {
  checkRequired,
  checkTextLength,
  firstIssue,
  LIMITS,
  REFUND_SUBSCRIPTION_ENDINGS,
  type RefundSubscriptionEnding,
  type RefundToBalanceRequest,
} from '@kupa/proto';
import { IsIn } from 'class-validator';
import { SatisfiesRule, Trimmed } from '../../../../platform/http';

export class RefundToBalanceRequestDto implements RefundToBalanceRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.textMaxLength,
    description: 'Why the money goes back, for staff: on the REFUND payment and in the activity log',
  })
  @Trimmed()
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkTextLength))
  reason: string;

  @ApiProperty({
    enum: REFUND_SUBSCRIPTION_ENDINGS,
    description: 'NOW ends the subscription at once (CANCELED, account disabled); AT_PERIOD_END lets it run to its end',
  })
  @IsIn(REFUND_SUBSCRIPTION_ENDINGS)
  subscriptionEnding: RefundSubscriptionEnding;
}
