import { ApiProperty } from '@nestjs/swagger';
import { type ChangePasswordRequest, checkNewPasswordDiffers, checkPasswordConfirmation } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { ComparedWith, NewPasswordField } from '../../infrastructure/password-fields';

export class ChangePasswordRequestDto implements ChangePasswordRequest {
  @ApiProperty()
  @IsString()
  @MaxLength(256)
  oldPassword: string;

  @NewPasswordField()
  @ComparedWith('oldPassword', checkNewPasswordDiffers)
  password: string;

  @ApiProperty()
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;
}
