import { ApiProperty } from '@nestjs/swagger';
import { checkPublicNote, type DepositClaimRequest, LIMITS } from '@kupa/proto';
import { AMOUNT_SCHEMA, IsAmount, OptionalField, SatisfiesRule, Trimmed } from '../../../../platform/http';

export class ClaimManualTransferRequestDto implements DepositClaimRequest {
  @ApiProperty({ ...AMOUNT_SCHEMA, description: 'Dollars sent; within the deposit minimum and maximum' })
  @IsAmount()
  amount: number;

  @ApiProperty({
    required: false,
    type: 'string',
    maxLength: LIMITS.publicNoteMaxLength,
    description: 'What may help staff find the transfer (the bank, the sender); shown to staff',
  })
  @OptionalField()
  @Trimmed()
  @SatisfiesRule(checkPublicNote)
  note?: string;
}
