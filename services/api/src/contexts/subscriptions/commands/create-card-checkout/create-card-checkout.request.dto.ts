import type { CardCheckoutRequest } from '@kupa/proto';
import { PromoCodeField } from '../../infrastructure/promo-code-field.dto';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

/** The streaming-service login and password of the subscription the card checkout buys, and an optional promo code. */
export class CreateCardCheckoutRequestDto extends LoginAndPasswordDto implements CardCheckoutRequest {
  @PromoCodeField()
  promoCode?: string;
}
