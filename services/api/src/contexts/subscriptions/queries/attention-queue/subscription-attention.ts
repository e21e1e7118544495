import type { DataSource } from 'typeorm';

/** One kind of subscriptions that need a person: how many, and the latest few (docs/product.md, Dashboard). */
export interface AttentionGroup {
  count: number;
  latest: Array<{ id: string; userEmail: string; amountMinor: number | null; at: Date }>;
}

interface Row {
  id: string;
  user_email: string;
  at: Date;
  total: number;
}

/**
 * Subscriptions that need a person:
 * - provisioning failed for good (a FAILED job) since `since`: the window is what clears it, since nothing retries a
 *   failed job and the subscription's own state (CANCELED and refunded, or running on an account the service did not
 *   extend) says no more;
 * - renewal failed: in GRACE now; it leaves the queue when a renewal succeeds or the grace window ends it.
 */
export async function subscriptionAttention(
  db: Pick<DataSource, 'query'>,
  { since, latest }: { since: Date; latest: number },
): Promise<{ provisioningFailed: AttentionGroup; renewalFailed: AttentionGroup }> {
  const [failed, grace] = await Promise.all([
    db.query(
      `SELECT j.subscription_id AS id, s.user_email, j.finished_at AS at, count(*) OVER ()::int AS total
         FROM provisioning_jobs j JOIN subscriptions s ON s.id = j.subscription_id
        WHERE j.status = 'FAILED' AND j.finished_at >= $1
        ORDER BY j.finished_at DESC, j.seq DESC LIMIT $2`,
      [since.toISOString(), latest],
    ) as Promise<Row[]>,
    db.query(
      `SELECT id, user_email, next_payment_date AS at, count(*) OVER ()::int AS total
         FROM subscriptions WHERE status = 'GRACE'
        ORDER BY next_payment_date ASC NULLS LAST, id LIMIT $1`,
      [latest],
    ) as Promise<Row[]>,
  ]);
  return { provisioningFailed: groupOf(failed), renewalFailed: groupOf(grace) };
}

function groupOf(rows: Row[]): AttentionGroup {
  return {
    count: rows[0]?.total ?? 0,
    latest: rows.map((row) => ({ id: row.id, userEmail: row.user_email, amountMinor: null, at: row.at })),
  };
}
