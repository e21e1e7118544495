import type { DataSource } from 'typeorm';

/** One kind of payments that need a person: how many, and the latest few (docs/product.md, Dashboard). */
export interface PaymentAttentionGroup {
  count: number;
  latest: Array<{ id: string; userEmail: string; amountMinor: number; at: Date }>;
}

interface Row {
  payment_id: string;
  user_email: string;
  amount_minor: string;
  created_at: Date;
  total: number;
}

/**
 * Payments that need a person:
 * - held for review (REVIEW: a card checkout paid in another currency, a crypto deposit above the maximum, ADR 0058);
 *   it leaves the queue when staff set its status;
 * - large deposits: successful, not a balance correction, of at least `largeDepositMinMinor`, booked since `since`;
 *   a staff member marking one seen clears it (`large_deposit_acknowledgements`), else the window does.
 */
export async function paymentAttention(
  db: Pick<DataSource, 'query'>,
  { since, latest, largeDepositMinMinor }: { since: Date; latest: number; largeDepositMinMinor: number },
): Promise<{ review: PaymentAttentionGroup; largeDeposits: PaymentAttentionGroup }> {
  const columns = `payment_id::text, user_email, amount_minor::text, created_at, count(*) OVER ()::int AS total`;
  const [review, large] = await Promise.all([
    db.query(
      `SELECT ${columns} FROM payments WHERE status = 'REVIEW'
        ORDER BY created_at DESC, payment_id DESC LIMIT $1`,
      [latest],
    ) as Promise<Row[]>,
    db.query(
      `SELECT ${columns} FROM payments
        WHERE type = 'DEPOSIT' AND status = 'SUCCESS' AND NOT correction AND created_at >= $1 AND amount_minor >= $2
          AND NOT EXISTS (SELECT 1 FROM large_deposit_acknowledgements a WHERE a.payment_id = payments.payment_id)
        ORDER BY created_at DESC, payment_id DESC LIMIT $3`,
      [since.toISOString(), largeDepositMinMinor, latest],
    ) as Promise<Row[]>,
  ]);
  return { review: groupOf(review), largeDeposits: groupOf(large) };
}

function groupOf(rows: Row[]): PaymentAttentionGroup {
  return {
    count: rows[0]?.total ?? 0,
    latest: rows.map((row) => ({
      id: row.payment_id,
      userEmail: row.user_email,
      amountMinor: Number(row.amount_minor),
      at: row.created_at,
    })),
  };
}
