import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkEmail, type EmailRequest, type Language, LANGUAGES } from '@kupa/proto';
import { IsIn, IsOptional } from 'class-validator';
import { SatisfiesRule } from '../../../../platform/http';
import { NormalizedEmail } from '../../infrastructure/dto-fields';

/** `{email, language?}`: shared by resend-confirmation and forgot-password. */
export class EmailRequestDto implements EmailRequest {
  @ApiProperty()
  @NormalizedEmail()
  @SatisfiesRule(checkEmail)
  email: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Mail language; the account language when absent' })
  @IsOptional()
  @IsIn(LANGUAGES)
  language?: Language;
}
