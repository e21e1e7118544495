import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkRequired, checkTextLength, firstIssue, VOUCHER_FUNDINGS, type VoucherFunding } from '@kupa/proto';
import { IsIn } from 'class-validator';
import { AMOUNT_SCHEMA, IsAmount, OptionalField, SatisfiesRule } from '../../../../platform/http';

export class FundVoucherBatchRequestDto {
  @ApiProperty({
    enum: VOUCHER_FUNDINGS,
    description: 'SOLD: money received by hand (world:manual); GIVEN_AWAY: the house pays (expense:promo)',
  })
  @IsIn(VOUCHER_FUNDINGS, { message: 'error.validation.invalid.input' })
  funding: VoucherFunding;

  @ApiProperty({ minLength: 1, description: 'Who bought it and how they paid, or why it is given away' })
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkTextLength))
  comment: string;

  @ApiPropertyOptional({
    ...AMOUNT_SCHEMA,
    description: 'A DAYS batch sold: the money received for the whole batch, in dollars (subscription revenue)',
  })
  @OptionalField()
  @IsAmount()
  amount?: number;
}
