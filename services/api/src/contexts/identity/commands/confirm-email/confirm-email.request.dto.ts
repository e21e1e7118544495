import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { codeMessage } from '../../../../platform/http';

export class ConfirmEmailQueryDto {
  @ApiProperty()
  @IsString({ message: codeMessage('error.confirmation.token.invalid') })
  @MaxLength(128, { message: codeMessage('error.confirmation.token.invalid') })
  token: string;
}
