import { ApiProperty } from '@nestjs/swagger';
import { checkExtensionReason, type ExtendSubscriptionRequest, LIMITS } from '@kupa/proto';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { SatisfiesRule, Trimmed } from '../../../../platform/http';

/** `POST /subscriptions/{id}/extension` (ADR 0089): how many days, and why, in words the client is shown. */
export class ExtendSubscriptionRequestDto implements ExtendSubscriptionRequest {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: LIMITS.extensionMaxDays })
  @IsInt()
  @Min(1)
  @Max(LIMITS.extensionMaxDays)
  days: number;

  @ApiProperty({ minLength: 1, maxLength: LIMITS.extensionReasonMaxLength })
  @Trimmed()
  @IsString()
  @SatisfiesRule(checkExtensionReason)
  reason: string;
}
