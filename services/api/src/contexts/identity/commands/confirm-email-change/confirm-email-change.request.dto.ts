import { ApiProperty } from '@nestjs/swagger';
import type { ConfirmEmailChangeRequest } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage } from '../../../../platform/http';
import { ONE_TIME_TOKEN_MAX_LENGTH } from '../../infrastructure/http/dto-fields';

export class ConfirmEmailChangeRequestDto implements ConfirmEmailChangeRequest {
  @ApiProperty({
    maxLength: ONE_TIME_TOKEN_MAX_LENGTH,
    description: 'The token from the link mailed to the new address',
  })
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(ONE_TIME_TOKEN_MAX_LENGTH, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;
}
