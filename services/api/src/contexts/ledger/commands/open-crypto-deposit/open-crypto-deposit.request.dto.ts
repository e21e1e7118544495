import { ApiProperty } from '@nestjs/swagger';
import { CRYPTO_METHODS, type CryptoDepositRequest, type CryptoMethod } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { AMOUNT_SCHEMA, IsAmount } from '../../../../platform/http';

export class OpenCryptoDepositRequestDto implements CryptoDepositRequest {
  @ApiProperty({
    ...AMOUNT_SCHEMA,
    description: 'Dollars; within the configured minimum and maximum (`GET /payments/crypto/options`)',
  })
  @IsAmount()
  amount: number;

  @ApiProperty({ enum: CRYPTO_METHODS })
  @IsIn(CRYPTO_METHODS)
  method: CryptoMethod;
}
