import type { EntityManager } from 'typeorm';

/**
 * The ledger owns `users.balance_minor` (so that `User.balance` is the ledger's balance) and writes it through these
 * two functions, inside its own projection's transaction. Identity only reads the column.
 */
/** Sets the balances of several users in one statement (a transfer moves two). */
export async function setUserBalances(
  manager: EntityManager,
  balances: ReadonlyArray<{ userUuid: string; balanceMinor: number }>,
): Promise<void> {
  if (balances.length === 0) return;
  await manager.query(
    `UPDATE users SET balance_minor = b.balance_minor
       FROM unnest($1::uuid[], $2::bigint[]) AS b(uuid, balance_minor) WHERE users.uuid = b.uuid`,
    [balances.map((balance) => balance.userUuid), balances.map((balance) => balance.balanceMinor)],
  );
}

/** Before the ledger rebuilds its read models every balance starts again from zero. */
export async function zeroUserBalances(manager: EntityManager): Promise<void> {
  await manager.query('UPDATE users SET balance_minor = 0 WHERE balance_minor <> 0');
}
