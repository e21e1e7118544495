import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEPOSIT_CLAIM_STATUSES, type DepositClaimStatus } from '@kupa/proto';
import { IsIn, IsOptional } from 'class-validator';

/** The query string of `GET /deposit-claims`; any other parameter is refused, as on every route. */
export class ListDepositClaimsRequestDto {
  @ApiPropertyOptional({ enum: DEPOSIT_CLAIM_STATUSES, description: 'Only claims in this status' })
  @IsOptional()
  @IsIn(DEPOSIT_CLAIM_STATUSES, { message: 'error.validation.invalid.input' })
  status?: DepositClaimStatus;
}
