import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type CreateUserRequest, type Language, LANGUAGES, type UserRole, USER_ROLES } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { EmailField, PersonNameField } from '../../infrastructure/http/dto-fields';
import { NewPasswordField } from '../../infrastructure/passwords/password-fields';
import { OptionalField } from '../../../../platform/http';

export class CreateUserRequestDto implements CreateUserRequest {
  @EmailField()
  email: string;

  @PersonNameField()
  firstName: string;

  @PersonNameField()
  lastName: string;

  @ApiProperty({ enum: USER_ROLES })
  @IsIn(USER_ROLES)
  role: UserRole;

  @NewPasswordField()
  password: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @OptionalField()
  @IsIn(LANGUAGES)
  language?: Language;
}
