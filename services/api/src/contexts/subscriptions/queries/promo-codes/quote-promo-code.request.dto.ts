import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkUuid } from '@kupa/proto';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField, SatisfiesRule } from '../../../../platform/http';

/** `GET /promo-codes/quote`: the code, and the package to buy or the subscription to renew. */
export class QuotePromoCodeQueryDto {
  @ApiProperty({ description: 'The code, any case' })
  @IsString()
  @MaxLength(64)
  code: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The package to buy (or give subscriptionId)' })
  @OptionalField()
  @SatisfiesRule(checkUuid)
  planId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The subscription to renew (or give planId)' })
  @OptionalField()
  @SatisfiesRule(checkUuid)
  subscriptionId?: string;
}
