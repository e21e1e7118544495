import { ApiPropertyOptional } from '@nestjs/swagger';
import { type EmailRequest, type Language, LANGUAGES } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { EmailField } from '../../infrastructure/http/dto-fields';
import { OptionalField } from '../../../../platform/http';

/** `{email, language?}`: shared by resend-confirmation and forgot-password. */
export class EmailRequestDto implements EmailRequest {
  @EmailField()
  email: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Mail language; the account language when absent' })
  @OptionalField()
  @IsIn(LANGUAGES)
  language?: Language;
}
