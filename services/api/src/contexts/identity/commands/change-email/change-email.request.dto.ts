import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type ChangeEmailRequest, type Language, LANGUAGES } from '@kupa/proto';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../../platform/http';
import { EmailField, StepUpCodeField } from '../../infrastructure/http/dto-fields';

/** Only a shape check: the current password is compared with the stored hash, whatever rule it once followed. */
const CURRENT_PASSWORD_MAX_LENGTH = 256;

export class ChangeEmailRequestDto implements ChangeEmailRequest {
  @EmailField()
  newEmail: string;

  @ApiProperty({ maxLength: CURRENT_PASSWORD_MAX_LENGTH })
  @IsString()
  @MaxLength(CURRENT_PASSWORD_MAX_LENGTH)
  currentPassword: string;

  @StepUpCodeField()
  otpCode?: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails; the account language when absent' })
  @OptionalField()
  @IsIn(LANGUAGES)
  language?: Language;
}
