import { ApiProperty } from '@nestjs/swagger';
import { checkRecipient, type TransferRequest } from '@kupa/proto';
import { IsAmount, SatisfiesRule } from '../../../../platform/http';

export class TransferBalanceRequestDto implements TransferRequest {
  @ApiProperty({ description: "The recipient's e-mail address or 8-digit profile ID", example: '12345678' })
  @SatisfiesRule(checkRecipient)
  recipient: string;

  @ApiProperty({ description: 'Dollars, at most two decimals, at most 99999.99', example: 12.5 })
  @IsAmount()
  amount: number;
}
