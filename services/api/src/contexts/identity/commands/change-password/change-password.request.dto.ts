import { ApiProperty } from '@nestjs/swagger';
import { type ChangePasswordRequest, checkNewPasswordDiffers, checkPasswordConfirmation } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { StepUpCodeField } from '../../infrastructure/http/dto-fields';
import { ComparedWith, NewPasswordField } from '../../infrastructure/passwords/password-fields';

/** Only a shape check: the current password is compared with the stored hash, whatever rule it once followed. */
const OLD_PASSWORD_MAX_LENGTH = 256;

export class ChangePasswordRequestDto implements ChangePasswordRequest {
  @ApiProperty({ maxLength: OLD_PASSWORD_MAX_LENGTH })
  @IsString()
  @MaxLength(OLD_PASSWORD_MAX_LENGTH)
  oldPassword: string;

  @NewPasswordField()
  @ComparedWith('oldPassword', checkNewPasswordDiffers)
  password: string;

  @ApiProperty({ description: 'Equal to `password`' })
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;

  @StepUpCodeField()
  otpCode?: string;
}
