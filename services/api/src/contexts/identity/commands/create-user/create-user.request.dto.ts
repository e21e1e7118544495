import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkEmail,
  checkPassword,
  checkPersonName,
  type CreateUserRequest,
  type Language,
  LANGUAGES,
  type UserRole,
  USER_ROLES,
} from '@kupa/proto';
import { IsIn, IsOptional } from 'class-validator';
import { SatisfiesRule } from '../../../../platform/http';
import { NormalizedEmail, Trimmed } from '../../infrastructure/dto-fields';

export class CreateUserRequestDto implements CreateUserRequest {
  @ApiProperty()
  @NormalizedEmail()
  @SatisfiesRule(checkEmail)
  email: string;

  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  firstName: string;

  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  lastName: string;

  @ApiProperty({ enum: USER_ROLES })
  @IsIn(USER_ROLES)
  role: UserRole;

  @ApiProperty()
  @SatisfiesRule(checkPassword)
  password: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @IsOptional()
  @IsIn(LANGUAGES)
  language?: Language;
}
