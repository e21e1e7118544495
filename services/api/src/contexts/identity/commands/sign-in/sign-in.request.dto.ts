import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS, type SignInRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { NormalizedEmail } from '../../infrastructure/http/dto-fields';
import { OptionalField } from '../../../../platform/http';

const EMAIL_MAX_LENGTH = 320;
const PASSWORD_MAX_LENGTH = 256;

/** Only shape checks: a sign-in must not reveal which rule a stored password follows. */
export class SignInRequestDto implements SignInRequest {
  @ApiProperty({ maxLength: EMAIL_MAX_LENGTH, description: 'Compared without case' })
  @NormalizedEmail()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  email: string;

  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;

  /** The second step for staff with two-factor sign-in on: an authenticator code or a recovery code. */
  @ApiPropertyOptional({
    maxLength: LIMITS.otpMaxLength,
    description: `Staff with two-factor sign-in: the authenticator's ${LIMITS.totpDigits}-digit code or a recovery code`,
  })
  @OptionalField()
  @IsString()
  @MaxLength(LIMITS.otpMaxLength)
  otp?: string;
}
