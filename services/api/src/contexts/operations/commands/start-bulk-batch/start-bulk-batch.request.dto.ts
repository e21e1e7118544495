import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BULK_LIMITS, checkPublicNote, checkRequired, checkTextLength, firstIssue, LIMITS } from '@kupa/proto';
import { IsInt, Max, Min } from 'class-validator';
import { AMOUNT_SCHEMA, codeMessage, IsAmount, OptionalField, SatisfiesRule, Trimmed } from '../../../../platform/http';
import { BulkSelectionRequestDto } from './bulk-selection.request.dto';

export class StartBulkBatchRequestDto extends BulkSelectionRequestDto {
  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.textMaxLength,
    description: "Why, for staff: on the batch, each target and the activity log (a goodwill payment's comment)",
  })
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkTextLength))
  reason: string;

  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.publicNoteMaxLength,
    description: "What the client is told: a goodwill credit's note on their payment",
  })
  @OptionalField()
  @Trimmed()
  @SatisfiesRule(checkPublicNote)
  publicNote?: string;

  @ApiPropertyOptional({ ...AMOUNT_SCHEMA, description: 'GOODWILL_CREDIT only: credited to each client' })
  @OptionalField()
  @IsAmount(undefined, { maxMinor: BULK_LIMITS.maxGoodwillMinor })
  amount?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: BULK_LIMITS.maxDays, description: 'ADD_DAYS only' })
  @OptionalField()
  @IsInt({ message: codeMessage('error.validation.invalid.input') })
  @Min(1, { message: codeMessage('error.validation.min', { min: 1 }) })
  @Max(BULK_LIMITS.maxDays, { message: codeMessage('error.validation.max', { max: BULK_LIMITS.maxDays }) })
  days?: number;
}
