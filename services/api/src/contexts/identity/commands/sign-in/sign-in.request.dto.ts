import { ApiProperty } from '@nestjs/swagger';
import type { SignInRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
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
}
