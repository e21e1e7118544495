import { ApiProperty } from '@nestjs/swagger';
import { checkUuid, type RenewSubscriptionRequest, type WithPromoCode } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';
import { PromoCodeField } from '../../infrastructure/promo-code-field.dto';

export class RenewSubscriptionRequestDto implements RenewSubscriptionRequest, WithPromoCode {
  @ApiProperty({ format: 'uuid' })
  @SatisfiesRule(checkUuid)
  subscriptionId: string;

  @PromoCodeField()
  promoCode?: string;
}
