import { ApiPropertyOptional } from '@nestjs/swagger';
import { type EmailRequest, type Language, LANGUAGES } from '@kupa/proto';
import { IsIn, IsOptional } from 'class-validator';
import { EmailField } from '../../infrastructure/http/dto-fields';

/** `{email, language?}`: shared by resend-confirmation and forgot-password. */
export class EmailRequestDto implements EmailRequest {
  @EmailField()
  email: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Mail language; the account language when absent' })
  @IsOptional()
  @IsIn(LANGUAGES)
  language?: Language;
}
