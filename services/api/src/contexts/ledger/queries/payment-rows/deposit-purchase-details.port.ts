/**
 * What a deposit pays for beyond the balance, as the payments list shows it (docs/adr/0068-deposit-purchases-owned-by-
 * subscriptions.md). The purchase is not the ledger's: the context that owns it binds this port (as the ledger binds
 * identity's `UserBalances`, ADR 0013).
 */
export abstract class DepositPurchaseDetails {
  /**
   * A read-only SQL relation `(payment_id bigint, kind text, payment_plan_id uuid, plan_name text, subscription_id uuid,
   * status text, error_code text)` with at most one row per deposit, which the payments list LEFT JOINs as `dp`.
   * `subscription_id` is null until a bought subscription exists.
   */
  abstract readonly relation: string;
}
