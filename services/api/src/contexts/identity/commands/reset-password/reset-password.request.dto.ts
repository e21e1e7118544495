import { ApiProperty } from '@nestjs/swagger';
import { checkPasswordConfirmation, type ResetPasswordRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage } from '../../../../platform/http';
import { ONE_TIME_TOKEN_MAX_LENGTH } from '../../infrastructure/http/dto-fields';
import { ComparedWith, NewPasswordField } from '../../infrastructure/passwords/password-fields';

export class ResetPasswordRequestDto implements ResetPasswordRequest {
  @ApiProperty({ maxLength: ONE_TIME_TOKEN_MAX_LENGTH, description: 'The token from the mailed link' })
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(ONE_TIME_TOKEN_MAX_LENGTH, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;

  @NewPasswordField()
  password: string;

  @ApiProperty({ description: 'Equal to `password`' })
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;
}
