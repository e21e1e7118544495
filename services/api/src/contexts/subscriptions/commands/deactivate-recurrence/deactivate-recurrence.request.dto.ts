import { ApiProperty } from '@nestjs/swagger';
import { checkUuid } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';

/** `POST /subscriptions/deactivate-recurrent?paymentPlanId=`: the package whose renewals stop. */
export class DeactivateRecurrenceQueryDto {
  @ApiProperty({ format: 'uuid' })
  @SatisfiesRule(checkUuid)
  paymentPlanId: string;
}
