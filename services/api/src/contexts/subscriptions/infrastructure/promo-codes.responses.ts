import { ApiProperty } from '@nestjs/swagger';
import {
  APPLIED_DISCOUNTS,
  type AppliedDiscount,
  PROMO_CODE_DISCOUNT_KINDS,
  PROMO_CODE_USES,
  type PromoCodeDiscountKind,
  type PromoCodeHold,
  type PromoCodeQuote,
  type PromoCodeUse,
  type PromoCodeView,
} from '@kupa/proto';

/** A promo code as the console lists it (docs/adr/0088-promo-codes.md). */
export class PromoCodeViewDto implements PromoCodeView {
  @ApiProperty({ example: 'SPRING20' })
  code: string;

  @ApiProperty({ enum: PROMO_CODE_DISCOUNT_KINDS })
  discountKind: PromoCodeDiscountKind;

  @ApiProperty({ type: 'integer', nullable: true })
  percent: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'Dollars off, for AMOUNT' })
  amount: number | null;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...PROMO_CODE_USES] } })
  appliesTo: PromoCodeUse[];

  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' }, nullable: true })
  planIds: string[] | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  validFrom: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  validUntil: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  maxUses: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  maxUsesPerClient: number | null;

  @ApiProperty()
  newClientsOnly: boolean;

  @ApiProperty({ enum: ['ACTIVE', 'DISABLED'] })
  status: 'ACTIVE' | 'DISABLED';

  @ApiProperty({ type: 'integer' })
  uses: number;

  @ApiProperty({ description: 'What the payments that used it paid, in dollars' })
  revenue: number;

  @ApiProperty({ description: 'What it took off those payments, in dollars' })
  discountGiven: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  disabledAt: string | null;
}

/** What the client would pay with a code, before confirming. */
export class PromoCodeQuoteDto implements PromoCodeQuote {
  @ApiProperty()
  code: string;

  @ApiProperty()
  listPrice: number;

  @ApiProperty()
  price: number;

  @ApiProperty({ enum: APPLIED_DISCOUNTS, description: 'Which discount the price used: the larger one wins' })
  applied: AppliedDiscount;

  @ApiProperty({ type: 'integer' })
  discountPercent: number;

  @ApiProperty()
  promoDiscount: number;

  @ApiProperty({ enum: ['USD'] })
  currency: 'USD';
}

/** A live hold on a code, as the console's promo codes page lists it (docs/adr/0088-promo-codes.md). */
export class PromoCodeHoldDto implements PromoCodeHold {
  @ApiProperty({ example: 'SPRING20' })
  code: string;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ description: "The client's e-mail address" })
  userEmail: string;

  @ApiProperty({ type: 'integer', description: 'The deposit or card checkout payment that holds the use' })
  depositPaymentId: number;

  @ApiProperty({ format: 'uuid' })
  subscriptionId: string;

  @ApiProperty({ description: 'What the client will pay with the code, in dollars' })
  price: number;

  @ApiProperty({ description: 'What the code takes off the list price, in dollars' })
  discount: number;

  @ApiProperty({ format: 'date-time' })
  heldSince: string;

  @ApiProperty({ format: 'date-time', description: 'After it the hold no longer counts against the limits' })
  expiresAt: string;
}
