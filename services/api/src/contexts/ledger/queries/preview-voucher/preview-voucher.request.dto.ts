import { VoucherCodeField } from '../../infrastructure/voucher-code-field.dto';

export class PreviewVoucherRequestDto {
  @VoucherCodeField()
  code: string;
}
