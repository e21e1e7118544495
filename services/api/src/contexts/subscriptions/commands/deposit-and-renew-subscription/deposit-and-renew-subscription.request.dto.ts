import { ApiProperty } from '@nestjs/swagger';
import { checkUuid, CRYPTO_METHODS, type CryptoDepositAndRenewRequest, type CryptoMethod } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { AMOUNT_SCHEMA, IsAmount, OptionalField, SatisfiesRule } from '../../../../platform/http';
import { PromoCodeField } from '../../infrastructure/promo-code-field.dto';

export class DepositAndRenewSubscriptionRequestDto implements CryptoDepositAndRenewRequest {
  @ApiProperty({ format: 'uuid', description: "One's own subscription to renew" })
  @SatisfiesRule(checkUuid)
  subscriptionId: string;

  @ApiProperty({ enum: CRYPTO_METHODS })
  @IsIn(CRYPTO_METHODS)
  method: CryptoMethod;

  @ApiProperty({
    ...AMOUNT_SCHEMA,
    required: false,
    description:
      'Dollars: the deposit the client was shown (the price less the referral discount, plus any debt). When sent, ' +
      'a renewal that now needs another amount is refused with 409 `error.renewal.amount.changed`',
  })
  @OptionalField()
  @IsAmount()
  amount?: number;

  @PromoCodeField()
  promoCode?: string;
}
