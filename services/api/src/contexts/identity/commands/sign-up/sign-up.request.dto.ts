import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkEmail,
  checkPassword,
  checkPersonName,
  checkReferralToken,
  type Language,
  LANGUAGES,
  type SignUpRequest,
} from '@kupa/proto';
import { Equals, IsIn, IsOptional } from 'class-validator';
import { codeMessage, SatisfiesRule } from '../../../../platform/http';
import { NormalizedEmail, Trimmed } from '../../infrastructure/dto-fields';

export class SignUpRequestDto implements SignUpRequest {
  @ApiProperty()
  @NormalizedEmail()
  @SatisfiesRule(checkEmail)
  email: string;

  @ApiProperty()
  @SatisfiesRule(checkPassword)
  password: string;

  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  firstName: string;

  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  lastName: string;

  @ApiProperty({ enum: [true] })
  @Equals(true, { message: codeMessage('error.validation.terms.not.accepted') })
  termsAccepted: true;

  @ApiPropertyOptional({ description: "The referrer's 8-digit profile ID" })
  @IsOptional()
  @SatisfiesRule(checkReferralToken)
  referralToken?: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @IsOptional()
  @IsIn(LANGUAGES)
  language?: Language;
}
