import { ApiProperty } from '@nestjs/swagger';
import {
  type GeneratedVoucherBatch,
  VOUCHER_FUNDINGS,
  VOUCHER_KINDS,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherFunding,
  type VoucherKind,
  type VoucherPreview,
  type VoucherRedemption,
} from '@kupa/proto';

/** The answers of the voucher routes, for the OpenAPI document (docs/adr/0089-prepaid-vouchers.md). */
export class VoucherBatchDto implements VoucherBatch {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  label: string;

  @ApiProperty({ enum: VOUCHER_KINDS, description: 'MONEY credits the balance; DAYS extends a subscription' })
  kind: VoucherKind;

  @ApiProperty({ description: 'How many codes the batch holds' })
  count: number;

  @ApiProperty({ description: 'What each MONEY code is worth, in dollars; 0 for DAYS' })
  amount: number;

  @ApiProperty({ nullable: true, type: Number, description: 'DAYS: the days each code adds' })
  days: number | null;

  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'DAYS: the package' })
  planId: string | null;

  @ApiProperty({ nullable: true, type: String, description: "DAYS: the package's name at generation" })
  planName: string | null;

  @ApiProperty({ enum: VOUCHER_FUNDINGS, nullable: true, type: String, description: 'Null until sold or given away' })
  funding: VoucherFunding | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  fundedAt: string | null;

  @ApiProperty({ nullable: true, type: String })
  fundingComment: string | null;

  @ApiProperty()
  redeemedCount: number;

  @ApiProperty({ description: 'What the batch still owes: its unredeemed codes once funded, in dollars' })
  outstanding: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ nullable: true, type: String })
  createdBy: string | null;
}

export class GeneratedVoucherBatchDto implements GeneratedVoucherBatch {
  @ApiProperty({ type: VoucherBatchDto })
  batch: VoucherBatchDto;

  @ApiProperty({ type: [String], description: 'The codes, formatted `ABCD-EFGH-JKMN-PQRS`' })
  codes: string[];
}

export class VoucherBatchListDto implements VoucherBatchList {
  @ApiProperty({ type: [VoucherBatchDto] })
  items: VoucherBatchDto[];

  @ApiProperty({ description: 'What all batches still owe: the balance of liability:vouchers, in dollars' })
  outstandingTotal: number;
}

export class VoucherRedemptionDto implements VoucherRedemption {
  @ApiProperty({ enum: VOUCHER_KINDS })
  kind: VoucherKind;

  @ApiProperty({ description: 'What the code was worth, in dollars (0 for DAYS)' })
  amount: number;

  @ApiProperty({ description: 'The balance after the credit, in dollars' })
  balance: number;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'MONEY: the DEPOSIT payment (method VOUCHER) that tells the client',
  })
  paymentId: number | null;

  @ApiProperty({ nullable: true, type: Number, description: 'DAYS: the days added' })
  days: number | null;

  @ApiProperty({ nullable: true, type: String, description: 'DAYS: the package' })
  planName: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'DAYS: the subscription extended or started',
  })
  subscriptionId: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: "DAYS: the extended subscription's new end; null for a new one (PENDING until provisioned)",
  })
  endDate: string | null;

  @ApiProperty({ description: 'DAYS: the code started a new subscription of the package' })
  newSubscription: boolean;
}

export class VoucherPreviewDto implements VoucherPreview {
  @ApiProperty({ enum: VOUCHER_KINDS })
  kind: VoucherKind;

  @ApiProperty({ description: 'MONEY: what the code adds to the balance, in dollars (0 for DAYS)' })
  amount: number;

  @ApiProperty({ nullable: true, type: Number, description: 'DAYS: the days it gives' })
  days: number | null;

  @ApiProperty({ nullable: true, type: String, description: 'DAYS: the package' })
  planName: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'DAYS: the subscription the days would extend; null when the code starts a new one',
  })
  subscriptionId: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: "DAYS: that subscription's end after the days, were the code redeemed now",
  })
  endDate: string | null;

  @ApiProperty({ description: 'DAYS: the code would start a new subscription (send a login and password to redeem)' })
  newSubscription: boolean;
}
