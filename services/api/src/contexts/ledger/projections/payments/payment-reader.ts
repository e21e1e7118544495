import { Injectable } from '@nestjs/common';
import { minorToAmount, type Payment, type PaymentRecordedData } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { PaymentRow } from '../../infrastructure/ledger.entities';
import { bigintToNumber } from '../../infrastructure/bigint';

/** The `Payment` payload (docs/api.md) from what a payment's events say, so a command answers without a read. */
export function paymentPayload(
  payment: PaymentRecordedData & { updatedAt: string },
  authors: { createdBy: string; updatedBy: string },
): Payment {
  return {
    paymentId: payment.paymentId,
    userUuid: payment.userUuid,
    userEmail: payment.userEmail,
    amount: minorToAmount(payment.amountMinor),
    currency: payment.currency,
    status: payment.status,
    method: payment.method,
    type: payment.type,
    aggregator: payment.aggregator,
    comment: payment.comment,
    senderProfileId: payment.senderProfileId,
    recipientProfileId: payment.recipientProfileId,
    transferId: payment.transferId,
    createdAt: payment.createdAt,
    createdBy: authors.createdBy,
    updatedAt: payment.updatedAt,
    updatedBy: authors.updatedBy,
  };
}

/** Reads of the payments read model. */
@Injectable()
export class PaymentReader {
  constructor(private readonly dataSource: DataSource) {}

  findById(paymentId: number): Promise<PaymentRow | null> {
    return this.dataSource.getRepository(PaymentRow).findOne({ where: { paymentId: String(paymentId) } });
  }

  toPayment(row: PaymentRow): Payment {
    return {
      paymentId: bigintToNumber(row.paymentId),
      userUuid: row.userUuid,
      userEmail: row.userEmail,
      amount: minorToAmount(bigintToNumber(row.amountMinor)),
      currency: row.currency as Payment['currency'],
      status: row.status as Payment['status'],
      method: row.method as Payment['method'],
      type: row.type as Payment['type'],
      aggregator: row.aggregator as Payment['aggregator'],
      comment: row.comment,
      senderProfileId: row.senderProfileId,
      recipientProfileId: row.recipientProfileId,
      transferId: row.transferId,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
      updatedAt: row.updatedAt.toISOString(),
      updatedBy: row.updatedBy,
    };
  }
}
