import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BALANCE_FIX_ACTIONS,
  type BalanceFixAction,
  checkRequired,
  checkUuid,
  checkTextLength,
  firstIssue,
  LIMITS,
  type ManualPaymentRequest,
} from '@kupa/proto';
import { IsBoolean, IsIn } from 'class-validator';
import { AMOUNT_SCHEMA, FieldNeededWhen, IsAmount, OptionalField, SatisfiesRule } from '../../../../platform/http';
import { PublicNoteField } from '../../infrastructure/public-note';

export class RecordManualPaymentRequestDto implements ManualPaymentRequest {
  @ApiProperty({ format: 'uuid' })
  @SatisfiesRule(checkUuid)
  userUuid: string;

  @ApiPropertyOptional({
    ...AMOUNT_SCHEMA,
    description: "Required unless `claimId` is given (then the claim's amount)",
  })
  @FieldNeededWhen((request: RecordManualPaymentRequestDto) => request.claimId === undefined)
  @IsAmount()
  amount?: number;

  @ApiProperty({ enum: BALANCE_FIX_ACTIONS })
  @IsIn(BALANCE_FIX_ACTIONS)
  action: BalanceFixAction;

  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.textMaxLength,
    description: 'Why the money moved, for staff: shown in the payment and the activity log, never to the client',
  })
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkTextLength))
  comment: string;

  @ApiPropertyOptional({ description: 'A balance fix against expense:adjustment rather than a real deposit or payout' })
  @OptionalField()
  @IsBoolean()
  correction?: boolean;

  @PublicNoteField('Shown to the client with the payment')
  publicNote?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A DEPOSIT that settles this open manual-transfer claim of the client (ADR 0112), in the same append',
  })
  @OptionalField()
  @SatisfiesRule(checkUuid)
  claimId?: string;
}
