import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage } from '../../../../platform/http';
import { ONE_TIME_TOKEN_MAX_LENGTH } from '../../infrastructure/http/dto-fields';

export class ConfirmEmailQueryDto {
  @ApiProperty({ maxLength: ONE_TIME_TOKEN_MAX_LENGTH, description: 'The token from the mailed link' })
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(ONE_TIME_TOKEN_MAX_LENGTH, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;
}
