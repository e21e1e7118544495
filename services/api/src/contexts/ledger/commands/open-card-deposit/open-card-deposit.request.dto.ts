import { ApiProperty } from '@nestjs/swagger';
import type { CardDepositRequest } from '@kupa/proto';
import { AMOUNT_SCHEMA, IsAmount } from '../../../../platform/http';

export class OpenCardDepositRequestDto implements CardDepositRequest {
  @ApiProperty({
    ...AMOUNT_SCHEMA,
    description: 'Dollars; within the deposit limits, the same as a crypto deposit (`GET /payments/crypto/options`)',
  })
  @IsAmount()
  amount: number;
}
