import { ApiProperty } from '@nestjs/swagger';
import { checkRequired, firstIssue, VOUCHER_LIMITS } from '@kupa/proto';
import { IsInt, Max, Min } from 'class-validator';
import { AMOUNT_SCHEMA, IsAmount, SatisfiesRule } from '../../../../platform/http';

const checkLabelLength = (value: string) =>
  value.length > VOUCHER_LIMITS.labelMaxLength
    ? { error: 'error.validation.too.many.symbols' as const, params: { max: VOUCHER_LIMITS.labelMaxLength } }
    : null;

export class GenerateVoucherBatchRequestDto {
  @ApiProperty({ minLength: 1, maxLength: VOUCHER_LIMITS.labelMaxLength, description: 'What staff call the batch' })
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkLabelLength))
  label: string;

  @ApiProperty({ minimum: 1, maximum: VOUCHER_LIMITS.codesPerBatchMax, description: 'How many one-time codes' })
  @IsInt({ message: 'error.validation.integer' })
  @Min(1, { message: 'error.validation.must.be.positive' })
  @Max(VOUCHER_LIMITS.codesPerBatchMax, { message: 'error.validation.invalid.input' })
  count: number;

  @ApiProperty({ ...AMOUNT_SCHEMA, description: 'What each code is worth, in dollars' })
  @IsAmount()
  amount: number;
}
