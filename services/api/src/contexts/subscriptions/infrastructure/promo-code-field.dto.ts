import { ApiProperty } from '@nestjs/swagger';
import type { WithPromoCode } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage, OptionalField } from '../../../platform/http';

/** The promo code field of the buy and renew calls (docs/adr/0088-promo-codes.md); its form is checked by the code. */
export function promoCodeSchema() {
  return ApiProperty({
    required: false,
    maxLength: 64,
    description: 'A promo code, any case; absent or empty for none. The larger of it and the referral discount applies',
  });
}

export const PromoCodeField = (): PropertyDecorator => (target, key) => {
  promoCodeSchema()(target, key);
  OptionalField()(target, key);
  IsString()(target, key);
  MaxLength(64, { message: codeMessage('error.promo.code.invalid') })(target, key);
};

export type { WithPromoCode };
