import { ApiProperty } from '@nestjs/swagger';
import { checkRecipient, PATTERNS, type TransferRequest } from '@kupa/proto';
import { AMOUNT_SCHEMA, IsAmount, SatisfiesRule } from '../../../../platform/http';

export class TransferBalanceRequestDto implements TransferRequest {
  @ApiProperty({
    anyOf: [{ pattern: PATTERNS.profileId.source }, { format: 'email' }],
    type: 'string',
    description: "The recipient's e-mail address or 8-digit profile ID",
    example: '12345678',
  })
  @SatisfiesRule(checkRecipient)
  recipient: string;

  @ApiProperty(AMOUNT_SCHEMA)
  @IsAmount()
  amount: number;
}
