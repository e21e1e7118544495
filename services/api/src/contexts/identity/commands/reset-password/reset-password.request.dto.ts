import { ApiProperty } from '@nestjs/swagger';
import { checkPassword, checkPasswordConfirmation, type ResetPasswordRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage, SatisfiesRule } from '../../../../platform/http';
import { ComparedWith } from '../../infrastructure/password-fields';

export class ResetPasswordRequestDto implements ResetPasswordRequest {
  @ApiProperty()
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(128, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;

  @ApiProperty()
  @SatisfiesRule(checkPassword)
  password: string;

  @ApiProperty()
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;
}
