import { ApiProperty } from '@nestjs/swagger';
import { checkUuid, type RenewSubscriptionRequest } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';

export class RenewSubscriptionRequestDto implements RenewSubscriptionRequest {
  @ApiProperty({ format: 'uuid' })
  @SatisfiesRule(checkUuid)
  subscriptionId: string;
}
