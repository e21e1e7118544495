import { ApiProperty } from '@nestjs/swagger';
import { checkRecipient, RECIPIENT_PATTERN, type TransferRequest } from '@kupa/proto';
import { AMOUNT_SCHEMA, IsAmount, SatisfiesRule } from '../../../../platform/http';
import { StepUpCodeField } from '../../../identity';

export class TransferBalanceRequestDto implements TransferRequest {
  @ApiProperty({
    type: 'string',
    pattern: RECIPIENT_PATTERN.source,
    description: "The recipient's e-mail address or 8-digit profile ID",
    example: '12345678',
  })
  @SatisfiesRule(checkRecipient)
  recipient: string;

  @ApiProperty(AMOUNT_SCHEMA)
  @IsAmount()
  amount: number;

  @StepUpCodeField()
  otpCode?: string;
}
