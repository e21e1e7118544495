import { ApiProperty } from '@nestjs/swagger';
import { RENEWAL_FUNDINGS, type RenewalFunding, type RenewalFundingRequest } from '@kupa/proto';
import { IsIn } from 'class-validator';

/** `PUT /subscriptions/{id}/renewal-funding`: how the automatic renewal is paid from now on. */
export class RenewalFundingRequestDto implements RenewalFundingRequest {
  @ApiProperty({ enum: RENEWAL_FUNDINGS })
  @IsIn(RENEWAL_FUNDINGS)
  funding: RenewalFunding;
}
