import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** The voucher code field of the preview and redeem calls (docs/adr/0089-prepaid-vouchers.md), one shape for both. */
export const VoucherCodeField = (): PropertyDecorator => (target, key) => {
  ApiProperty({
    example: 'ABCD-EFGH-JKMN-PQRS',
    maxLength: 64,
    description: 'The code as printed; case, spaces and dashes do not matter',
  })(target, key);
  IsString({ message: 'error.validation.invalid.input' })(target, key);
  MaxLength(64, { message: 'error.validation.too.many.symbols' })(target, key);
};
