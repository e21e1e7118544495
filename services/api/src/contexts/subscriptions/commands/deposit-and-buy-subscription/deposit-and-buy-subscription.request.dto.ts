import { ApiProperty } from '@nestjs/swagger';
import { CRYPTO_METHODS, type CryptoDepositAndBuyRequest, type CryptoMethod } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { PromoCodeField } from '../../infrastructure/promo-code-field.dto';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

/** The coin to pay in, the login and password of the subscription the deposit buys, and an optional promo code. */
export class DepositAndBuySubscriptionRequestDto extends LoginAndPasswordDto implements CryptoDepositAndBuyRequest {
  @ApiProperty({ enum: CRYPTO_METHODS })
  @IsIn(CRYPTO_METHODS)
  method: CryptoMethod;

  @PromoCodeField()
  promoCode?: string;
}
