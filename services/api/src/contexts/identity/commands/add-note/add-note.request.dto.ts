import { ApiProperty } from '@nestjs/swagger';
import { checkNoteText, type CreateNoteRequest, LIMITS } from '@kupa/proto';
import { IsString } from 'class-validator';
import { SatisfiesRule, Trimmed } from '../../../../platform/http';

export class AddNoteRequestDto implements CreateNoteRequest {
  /** Proto's `checkNoteText`, the rule the console's form applies too: a note over the limit is refused, never cut. */
  @ApiProperty({ minLength: 1, maxLength: LIMITS.noteMaxLength })
  @Trimmed()
  @IsString()
  @SatisfiesRule(checkNoteText)
  text: string;
}
