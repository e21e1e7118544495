/**
 * What a balance payment paid for: the subscription a SUBSCRIPTION_PAYMENT bought or renewed, or a REFUND gave back,
 * and its package's name (docs/adr/0077-details-people-can-read.md). Subscriptions are not the ledger's: the context
 * that owns them binds this port, as it binds `DepositPurchaseDetails` (ADR 0068).
 */
export abstract class SubscriptionPaymentDetails {
  /**
   * A read-only SQL relation `(payment_id bigint, subscription_id uuid, plan_name text, promo_code text,
   * promo_discount_minor bigint)` with at most one row per payment, which the payments reads LEFT JOIN as `sp`. The
   * promo code columns are null when the payment used no code (docs/adr/0088-promo-codes.md).
   */
  abstract readonly relation: string;
}
