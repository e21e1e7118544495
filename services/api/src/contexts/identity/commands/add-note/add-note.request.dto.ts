import { ApiProperty } from '@nestjs/swagger';
import { type CreateNoteRequest, LIMITS } from '@kupa/proto';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { codeMessage, Trimmed } from '../../../../platform/http';

export class AddNoteRequestDto implements CreateNoteRequest {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.noteMaxLength })
  @Trimmed()
  @IsString()
  @IsNotEmpty({ message: codeMessage('error.validation.blank') })
  @MaxLength(LIMITS.noteMaxLength, {
    message: codeMessage('error.validation.max.length', { max: LIMITS.noteMaxLength }),
  })
  text: string;
}
