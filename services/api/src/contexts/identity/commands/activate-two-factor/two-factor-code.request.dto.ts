import { ApiProperty } from '@nestjs/swagger';
import { LIMITS, type TwoFactorCodeRequest } from '@kupa/proto';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** A code from the authenticator (or a recovery code where the call accepts one); its meaning is checked later. */
export class TwoFactorCodeRequestDto implements TwoFactorCodeRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.otpMaxLength,
    example: '123456',
    description: `The authenticator's ${LIMITS.totpDigits}-digit code, or a recovery code where the call takes one`,
  })
  @IsString({ message: 'error.validation.invalid.format' })
  @IsNotEmpty({ message: 'error.validation.required' })
  @MaxLength(LIMITS.otpMaxLength, { message: 'error.validation.too.many.symbols' })
  code: string;
}
