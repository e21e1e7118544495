import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkRequired,
  checkUuid,
  firstIssue,
  LIMITS,
  VOUCHER_KINDS,
  VOUCHER_LIMITS,
  type VoucherKind,
} from '@kupa/proto';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { AMOUNT_SCHEMA, FieldNeededWhen, IsAmount, OptionalField, SatisfiesRule } from '../../../../platform/http';

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
  @OptionalField()
  @IsIn(VOUCHER_KINDS, { message: 'error.validation.invalid.input' })
  kind?: VoucherKind;

  @ApiPropertyOptional({ ...AMOUNT_SCHEMA, description: 'MONEY: what each code is worth, in dollars' })
  @FieldNeededWhen((dto: GenerateVoucherBatchRequestDto) => dto.kind !== 'DAYS')
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: LIMITS.extensionMaxDays, description: 'DAYS: the days each code adds' })
  @FieldNeededWhen((dto: GenerateVoucherBatchRequestDto) => dto.kind === 'DAYS')
  @IsInt({ message: 'error.validation.integer' })
  @Min(1, { message: 'error.validation.must.be.positive' })
  @Max(LIMITS.extensionMaxDays, { message: 'error.validation.invalid.input' })
  days?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'DAYS: the package whose subscription the codes extend' })
  @FieldNeededWhen((dto: GenerateVoucherBatchRequestDto) => dto.kind === 'DAYS')
  @SatisfiesRule(checkUuid)
  planId?: string;
}
