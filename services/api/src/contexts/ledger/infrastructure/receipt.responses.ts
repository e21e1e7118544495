import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_METHODS, RECEIPT_KINDS } from '@kupa/proto';

/** One receipt (docs/product.md, Receipts): amounts in dollars, as every payload of the API. */
export class ReceiptDto {
  @ApiProperty({ description: 'From its own sequence, with no gaps', minimum: 1 })
  number: number;
  @ApiProperty({ format: 'date-time' })
  issuedAt: string;
  @ApiProperty({ enum: RECEIPT_KINDS })
  kind: string;
  @ApiProperty({ enum: PAYMENT_METHODS })
  method: string;
  @ApiProperty({ description: 'The payment it is for' })
  paymentId: number;
  @ApiProperty({ format: 'uuid' })
  userUuid: string;
  @ApiProperty({ description: "The client's name as it was when the receipt was issued" })
  clientName: string;
  @ApiProperty()
  clientEmail: string;
  @ApiProperty({ nullable: true, type: String })
  profileId: string | null;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ description: 'What reached the balance (DEPOSIT) or what was taken from it (PURCHASE, RENEWAL)' })
  amount: number;
  @ApiProperty({ nullable: true, type: Number, description: 'A crypto deposit: what its invoice asked for' })
  amountAsked: number | null;
  @ApiProperty({ nullable: true, type: Number, description: "A purchase or renewal: the package's price before" })
  listPrice: number | null;
  @ApiProperty({ minimum: 0 })
  discount: number;
  @ApiProperty({ nullable: true, type: String, enum: ['REFERRAL', 'PROMO_CODE'] })
  discountKind: string | null;
  @ApiProperty({ description: 'The referral discount in percent; 0 otherwise' })
  discountPercent: number;
  @ApiProperty({ nullable: true, type: String })
  promoCode: string | null;
  @ApiProperty({ nullable: true, type: String })
  planName: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The balance right after this money moved' })
  balanceAfter: number | null;
}

export class ReceiptListDto {
  @ApiProperty({ type: [ReceiptDto], description: 'Newest first, at most 500' })
  items: ReceiptDto[];
}
