import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LIMITS, type SignInRequest } from '@kupa/proto';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { NormalizedEmail } from '../../infrastructure/dto-fields';

/** Only shape checks: a sign-in must not reveal which rule a stored password follows. */
export class SignInRequestDto implements SignInRequest {
  @ApiProperty()
  @NormalizedEmail()
  @IsString()
  @MaxLength(320)
  email: string;

  @ApiProperty()
  @IsString()
  @MaxLength(256)
  password: string;

  /** The second step for staff with two-factor sign-in on: an authenticator code or a recovery code. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(LIMITS.otpMaxLength)
  otp?: string;
}
