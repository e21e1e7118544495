import { Injectable } from '@nestjs/common';
import { minorToAmount, type Payment, type PaymentRecordedData } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { PAYMENT_COLUMNS, type PaymentRow, toPayment } from '../../queries/payment-rows/payment-query';

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

  async find(paymentId: number): Promise<Payment | null> {
    const rows: PaymentRow[] = await this.dataSource.query(
      `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.payment_id = $1`,
      [paymentId],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }
}
