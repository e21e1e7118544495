import { ApiProperty } from '@nestjs/swagger';
import { checkSubscriptionLogin, checkSubscriptionPassword, LIMITS, PATTERNS } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { FieldNeededWhen, SatisfiesRule } from '../../../../platform/http';

export class RedeemVoucherRequestDto {
  @ApiProperty({
    example: 'ABCD-EFGH-JKMN-PQRS',
    maxLength: 64,
    description: 'The code as printed; case, spaces and dashes do not matter',
  })
  @IsString({ message: 'error.validation.invalid.input' })
  @MaxLength(64, { message: 'error.validation.too.many.symbols' })
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
