import type { DataSource } from 'typeorm';

/** The discounts given on subscription payments within a period, in cents (docs/product.md, Dashboard). */
export interface DiscountFigures {
  /**
   * The referral discount of each successful SUBSCRIPTION_PAYMENT that had one: the subscription's list price (kept
   * as bought, and what a renewal is charged from) less what the payment took; never below zero (rows older than
   * the list price column hold 0 there).
   */
  referralMinor: number;
  /** What promo codes took off the list price of the payments that used one (docs/adr/0088-promo-codes.md). */
  promoCodeMinor: number;
}

/**
 * `from` inclusive, `until` exclusive. A discount counts in the month it was given, whatever became of the payment
 * later (a refund gives back what was paid, not the discount). The payments of the period are read by their creation
 * time, as the revenue figures read them.
 */
export async function discountFigures(
  db: Pick<DataSource, 'query'>,
  { from, until }: { from: Date; until: Date },
): Promise<DiscountFigures> {
  const parameters = [from.toISOString(), until.toISOString()];
  const [referral, promo] = await Promise.all([
    db.query(
      `SELECT coalesce(sum(greatest(s.list_price_minor - p.amount_minor, 0)), 0)::text AS minor
         FROM payments p
         JOIN subscription_payments sp ON sp.payment_id = p.payment_id
         JOIN subscriptions s ON s.id = sp.subscription_id
        WHERE p.created_at >= $1 AND p.created_at < $2 AND p.type = 'SUBSCRIPTION_PAYMENT' AND p.status = 'SUCCESS'
          AND p.discount_percent > 0`,
      parameters,
    ) as Promise<Array<{ minor: string }>>,
    db.query(
      `SELECT coalesce(sum(discount_minor), 0)::text AS minor
         FROM promo_code_uses WHERE redeemed_at >= $1 AND redeemed_at < $2`,
      parameters,
    ) as Promise<Array<{ minor: string }>>,
  ]);
  return { referralMinor: Number(referral[0].minor), promoCodeMinor: Number(promo[0].minor) };
}
