import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkReferralToken, type Language, LANGUAGES, LIMITS, type SignUpRequest } from '@kupa/proto';
import { Equals, IsIn } from 'class-validator';
import { codeMessage, OptionalField, SatisfiesRule } from '../../../../platform/http';
import { EmailField, PersonNameField } from '../../infrastructure/http/dto-fields';
import { NewPasswordField } from '../../infrastructure/passwords/password-fields';

export class SignUpRequestDto implements SignUpRequest {
  @EmailField()
  email: string;

  @NewPasswordField()
  password: string;

  @PersonNameField()
  firstName: string;

  @PersonNameField()
  lastName: string;

  @ApiProperty({ enum: [true] })
  @Equals(true, { message: codeMessage('error.validation.terms.not.accepted') })
  termsAccepted: true;

  @ApiPropertyOptional({
    pattern: `^[0-9]{1,${LIMITS.profileIdDigits}}$`,
    description: "The referrer's 8-digit profile ID",
  })
  @OptionalField()
  @SatisfiesRule(checkReferralToken)
  referralToken?: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @OptionalField()
  @IsIn(LANGUAGES)
  language?: Language;
}
