import { ApiProperty } from '@nestjs/swagger';
import {
  type GeneratedVoucherBatch,
  VOUCHER_FUNDINGS,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherFunding,
  type VoucherRedemption,
} from '@kupa/proto';

/** The answers of the voucher routes, for the OpenAPI document (docs/adr/0089-prepaid-vouchers.md). */
export class VoucherBatchDto implements VoucherBatch {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  label: string;

  @ApiProperty({ description: 'How many codes the batch holds' })
  count: number;

  @ApiProperty({ description: 'What each code is worth, in dollars' })
  amount: number;

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
  @ApiProperty({ description: 'What the code was worth, in dollars' })
  amount: number;

  @ApiProperty({ description: 'The balance after the credit, in dollars' })
  balance: number;

  @ApiProperty({ description: 'The DEPOSIT payment (method VOUCHER) that tells the client' })
  paymentId: number;
}
