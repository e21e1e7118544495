import { Injectable } from '@nestjs/common';
import { type PaymentMethod, type Receipt, type ReceiptDiscountKind, type ReceiptKind } from '@kupa/proto';
import { receiptAmount } from '@kupa/proto/dist/receipt-lines';
import { DataSource, type EntityManager } from 'typeorm';

interface ReceiptRow {
  number: string;
  issued_at: Date;
  kind: ReceiptKind;
  method: PaymentMethod;
  payment_id: string;
  user_uuid: string;
  client_name: string;
  client_email: string;
  profile_id: string | null;
  currency: string;
  amount_minor: string;
  amount_asked_minor: string | null;
  list_price_minor: string | null;
  discount_minor: string;
  discount_kind: ReceiptDiscountKind | null;
  discount_percent: number;
  promo_code: string | null;
  plan_name: string | null;
  balance_after_minor: string | null;
}

const COLUMNS = `number::text, issued_at, kind, method, payment_id::text, user_uuid, client_name, client_email, profile_id,
  currency, amount_minor::text, amount_asked_minor::text, list_price_minor::text, discount_minor::text, discount_kind,
  discount_percent, promo_code, plan_name, balance_after_minor::text`;

/** A client's receipts are few (one per payment that moved money in or bought something); a list shows the newest. */
export const RECEIPTS_LIST_MAX = 500;

function amountOf(minor: string | null): number | null {
  return minor === null ? null : receiptAmount(Number(minor));
}

function toReceipt(row: ReceiptRow): Receipt {
  return {
    number: Number(row.number),
    issuedAt: row.issued_at.toISOString(),
    kind: row.kind,
    method: row.method,
    paymentId: Number(row.payment_id),
    userUuid: row.user_uuid,
    clientName: row.client_name,
    clientEmail: row.client_email,
    profileId: row.profile_id,
    currency: row.currency,
    amount: receiptAmount(Number(row.amount_minor)),
    amountAsked: amountOf(row.amount_asked_minor),
    listPrice: amountOf(row.list_price_minor),
    discount: receiptAmount(Number(row.discount_minor)),
    discountKind: row.discount_kind,
    discountPercent: row.discount_percent,
    promoCode: row.promo_code,
    planName: row.plan_name,
    balanceAfter: amountOf(row.balance_after_minor),
  };
}

/** The `receipts` table the `receipts` processor fills: a client's list, one receipt, the one a payment earned. */
@Injectable()
export class ReceiptReader {
  constructor(private readonly dataSource: DataSource) {}

  async list(userUuid: string, filter: { paymentId?: number } = {}): Promise<Receipt[]> {
    const rows: ReceiptRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM receipts WHERE user_uuid = $1 AND ($2::bigint IS NULL OR payment_id = $2)
        ORDER BY receipts.number DESC LIMIT ${RECEIPTS_LIST_MAX}`,
      [userUuid, filter.paymentId ?? null],
    );
    return rows.map(toReceipt);
  }

  /** A receipt of this client's, or null: another's is not theirs to know of. */
  async find(
    userUuid: string,
    number: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Receipt | null> {
    const rows: ReceiptRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM receipts WHERE number = $1 AND user_uuid = $2`,
      [number, userUuid],
    );
    return rows[0] ? toReceipt(rows[0]) : null;
  }
}
