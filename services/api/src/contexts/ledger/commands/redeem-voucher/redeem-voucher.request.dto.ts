import { ApiProperty } from '@nestjs/swagger';
import { checkSubscriptionLogin, checkSubscriptionPassword, LIMITS, PATTERNS } from '@kupa/proto';
import { FieldNeededWhen, SatisfiesRule } from '../../../../platform/http';
import { VoucherCodeField } from '../../infrastructure/voucher-code-field.dto';

export class RedeemVoucherRequestDto {
  @VoucherCodeField()
  code: string;

  @ApiProperty({
    required: false,
    minLength: LIMITS.subscriptionLoginMinLength,
    maxLength: LIMITS.subscriptionLoginMaxLength,
    pattern: PATTERNS.subscriptionLogin.source,
    description:
      'A day code for a package the client has no subscription of to extend starts one: its login at the streaming ' +
      'service (with `password`); ignored when there is one to extend or for a money code',
  })
  @FieldNeededWhen((dto: RedeemVoucherRequestDto) => dto.password !== undefined)
  @SatisfiesRule(checkSubscriptionLogin)
  login?: string;

  @ApiProperty({
    required: false,
    minLength: LIMITS.subscriptionPasswordMinLength,
    maxLength: LIMITS.textMaxLength,
    pattern: PATTERNS.subscriptionPassword.source,
    writeOnly: true,
    description: "The new subscription's password at the streaming service (with `login`); never returned",
  })
  @FieldNeededWhen((dto: RedeemVoucherRequestDto) => dto.login !== undefined)
  @SatisfiesRule(checkSubscriptionPassword)
  password?: string;
}
