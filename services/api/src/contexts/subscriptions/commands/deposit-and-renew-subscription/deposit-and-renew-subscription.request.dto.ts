import { ApiProperty } from '@nestjs/swagger';
import { checkUuid, CRYPTO_METHODS, type CryptoDepositAndRenewRequest, type CryptoMethod } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { SatisfiesRule } from '../../../../platform/http';

export class DepositAndRenewSubscriptionRequestDto implements CryptoDepositAndRenewRequest {
  @ApiProperty({ format: 'uuid', description: "One's own subscription to renew" })
  @SatisfiesRule(checkUuid)
  subscriptionId: string;

  @ApiProperty({ enum: CRYPTO_METHODS })
  @IsIn(CRYPTO_METHODS)
  method: CryptoMethod;
}
