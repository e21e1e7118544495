import { ApiProperty } from '@nestjs/swagger';
import {
  type ChangePasswordRequest,
  checkNewPasswordDiffers,
  checkPassword,
  checkPasswordConfirmation,
} from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { SatisfiesRule } from '../../../../platform/http';
import { ComparedWith } from '../../infrastructure/password-fields';

export class ChangePasswordRequestDto implements ChangePasswordRequest {
  @ApiProperty()
  @IsString()
  @MaxLength(256)
  oldPassword: string;

  @ApiProperty()
  @SatisfiesRule(checkPassword)
  @ComparedWith('oldPassword', checkNewPasswordDiffers)
  password: string;

  @ApiProperty()
  @ComparedWith('password', checkPasswordConfirmation)
  confirmPassword: string;
}
