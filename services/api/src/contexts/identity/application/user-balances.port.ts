/**
 * What identity needs from the context that keeps the money: the balance the `User` payload shows, and a way to sort
 * the users search by it. Identity owns `users` and nothing about money; the ledger owns its tables and binds this
 * port to its own reader (ADR 0013), so identity never imports the ledger and never reads the ledger's tables.
 */
export abstract class UserBalances {
  /** Balances in cents by user uuid, one query for all of them; a user the ledger has never booked for is absent. */
  abstract balancesOf(userUuids: readonly string[]): Promise<ReadonlyMap<string, number>>;

  /**
   * A read-only SQL relation `(user_uuid uuid, balance_minor bigint)` with at most one row per user, published by
   * the implementer for the one thing a batch read cannot do: sorting a filtered, paged users search by balance in
   * the same query. Identity LEFT JOINs it only when that sort is asked for.
   */
  abstract readonly sortRelation: string;
}
