import { ApiProperty } from '@nestjs/swagger';
import { CRYPTO_METHODS, type CryptoDepositAndBuyRequest, type CryptoMethod } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { LoginAndPasswordDto } from '../../infrastructure/subscription-requests.dto';

/** The coin to pay in, and the streaming-service login and password of the subscription the deposit buys. */
export class DepositAndBuySubscriptionRequestDto extends LoginAndPasswordDto implements CryptoDepositAndBuyRequest {
  @ApiProperty({ enum: CRYPTO_METHODS })
  @IsIn(CRYPTO_METHODS)
  method: CryptoMethod;
}
