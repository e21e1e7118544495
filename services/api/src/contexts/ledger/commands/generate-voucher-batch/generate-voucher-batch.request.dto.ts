import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkRequired, firstIssue, LIMITS, VOUCHER_KINDS, VOUCHER_LIMITS, type VoucherKind } from '@kupa/proto';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min, ValidateIf } from 'class-validator';
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

  @ApiPropertyOptional({ enum: VOUCHER_KINDS, default: 'MONEY', description: 'MONEY credits; DAYS extends' })
  @IsOptional()
  @IsIn(VOUCHER_KINDS, { message: 'error.validation.invalid.input' })
  kind?: VoucherKind;

  @ApiPropertyOptional({ ...AMOUNT_SCHEMA, description: 'MONEY: what each code is worth, in dollars' })
  @ValidateIf((dto: GenerateVoucherBatchRequestDto) => dto.kind !== 'DAYS')
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: LIMITS.extensionMaxDays, description: 'DAYS: the days each code adds' })
  @ValidateIf((dto: GenerateVoucherBatchRequestDto) => dto.kind === 'DAYS')
  @IsInt({ message: 'error.validation.integer' })
  @Min(1, { message: 'error.validation.must.be.positive' })
  @Max(LIMITS.extensionMaxDays, { message: 'error.validation.invalid.input' })
  days?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'DAYS: the package whose subscription the codes extend' })
  @ValidateIf((dto: GenerateVoucherBatchRequestDto) => dto.kind === 'DAYS')
  @IsUUID('all', { message: 'error.validation.invalid.input' })
  planId?: string;
}
