import { ApiProperty } from '@nestjs/swagger';
import type { SignInRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { NormalizedEmail } from '../../infrastructure/dto-fields';

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
}
