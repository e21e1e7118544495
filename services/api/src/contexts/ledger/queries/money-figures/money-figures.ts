import type { DataSource } from 'typeorm';

/** The money the business made in one period (a UTC day or month), in cents. */
export interface MoneyInPeriod {
  /** The period's first day, `YYYY-MM-DD` (UTC). */
  period: string;
  /** Successful subscription payments less successful refunds: can be negative in a month of refunds. */
  revenueMinor: number;
  /** Successful deposits, balance corrections left out (they fix a mistake; no money came in). */
  depositsMinor: number;
}

export interface MoneyFiguresRequest {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  until: Date;
  period: 'day' | 'month';
}

interface MoneyRow {
  period: string;
  revenue_minor: string;
  deposits_minor: string;
}

/**
 * Revenue and deposits per UTC day or month from the payments read model, for reporting. A payment counts in the
 * period it was booked in, at its current status: a manual deposit later set to FAILED leaves the figures. Periods
 * without any such payment are not returned.
 */
export async function ledgerMoneyFigures(
  db: Pick<DataSource, 'query'>,
  { from, until, period }: MoneyFiguresRequest,
): Promise<MoneyInPeriod[]> {
  const rows = (await db.query(
    `SELECT to_char(date_trunc($3, created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS period,
            sum(CASE WHEN type = 'SUBSCRIPTION_PAYMENT' THEN amount_minor
                     WHEN type = 'REFUND' THEN -amount_minor ELSE 0 END)::text AS revenue_minor,
            sum(CASE WHEN type = 'DEPOSIT' THEN amount_minor ELSE 0 END)::text AS deposits_minor
       FROM payments
      WHERE created_at >= $1 AND created_at < $2 AND status = 'SUCCESS'
        AND (type IN ('SUBSCRIPTION_PAYMENT', 'REFUND') OR (type = 'DEPOSIT' AND NOT correction))
      GROUP BY 1
      ORDER BY 1`,
    [from.toISOString(), until.toISOString(), period],
  )) as MoneyRow[];
  return rows.map((row) => ({
    period: row.period,
    revenueMinor: Number(row.revenue_minor),
    depositsMinor: Number(row.deposits_minor),
  }));
}
