import type { DataSource } from 'typeorm';

/** Counts of the subscriptions read model for reporting. */
export interface SubscriptionFigures {
  /**
   * Subscriptions running now: ACTIVE (a cancelled one stays ACTIVE until its end) or UNSUBSCRIBED (its automatic
   * renewal stopped, its period still paid and running). A client of either still watches (ADR 0076).
   */
  active: number;
  /** Subscriptions created (bought or taken as a trial) in the current month and the one before. */
  newThisMonth: number;
  newLastMonth: number;
  /**
   * Recurrent ACTIVE or GRACE subscriptions, not cancelled, whose automatic renewal (in GRACE its next attempt) is due
   * before `renewalsUntil`; one whose date has passed (a renewal retried while the balance is short) is still due. A
   * GRACE one is due here but not among the `active` ones: its account is paused (ADR 0081).
   */
  renewalsDue: number;
}

export interface SubscriptionFiguresRequest {
  lastMonthFrom: Date;
  thisMonthFrom: Date;
  nextMonthFrom: Date;
  renewalsUntil: Date;
}

/** Three small counts, each answered from its own index of the `subscriptions` table. */
export async function subscriptionFigures(
  db: Pick<DataSource, 'query'>,
  request: SubscriptionFiguresRequest,
): Promise<SubscriptionFigures> {
  const count = async (sql: string, parameters: unknown[] = []) =>
    ((await db.query(sql, parameters)) as Array<{ count: number }>)[0].count;
  const [active, created, renewalsDue] = await Promise.all([
    count(`SELECT count(*)::int AS count FROM subscriptions WHERE status IN ('ACTIVE', 'UNSUBSCRIBED')`),
    db.query(
      `SELECT count(*) FILTER (WHERE created_at >= $2)::int AS this_month,
              count(*) FILTER (WHERE created_at < $2)::int AS last_month
         FROM subscriptions WHERE created_at >= $1 AND created_at < $3`,
      [request.lastMonthFrom.toISOString(), request.thisMonthFrom.toISOString(), request.nextMonthFrom.toISOString()],
    ) as Promise<Array<{ this_month: number; last_month: number }>>,
    count(
      `SELECT count(*)::int AS count FROM subscriptions
        WHERE next_payment_date < $1 AND status IN ('ACTIVE', 'GRACE') AND is_recurrent AND NOT cancel_at_period_end`,
      [request.renewalsUntil.toISOString()],
    ),
  ]);
  return { active, newThisMonth: created[0].this_month, newLastMonth: created[0].last_month, renewalsDue };
}
