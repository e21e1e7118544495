import type { WithPromoCode } from '@kupa/proto';
import { PromoCodeField } from '../../infrastructure/promo-code-field.dto';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

/** `POST /subscriptions/balance/payment-plans/{planId}`: the login and password, and an optional promo code. */
export class BuySubscriptionRequestDto extends LoginAndPasswordDto implements WithPromoCode {
  @PromoCodeField()
  promoCode?: string;
}
