import { ApiProperty } from '@nestjs/swagger';
import { checkPasswordConfirmation, type ResetPasswordRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage } from '../../../../platform/http';
import { ComparedWith, NewPasswordField } from '../../infrastructure/password-fields';

export class ResetPasswordRequestDto implements ResetPasswordRequest {
  @ApiProperty()
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(128, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;

  @NewPasswordField()
  password: string;

  @ApiProperty()
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;
}
