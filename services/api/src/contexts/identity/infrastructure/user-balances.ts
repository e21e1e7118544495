import type { EntityManager } from 'typeorm';

/**
 * The ledger owns `users.balance_minor` (so that `User.balance` is the ledger's balance) and writes it through these
 * two functions, inside its own projection's transaction. Identity only reads the column.
 */
export async function setUserBalance(manager: EntityManager, userUuid: string, balanceMinor: number): Promise<void> {
  await manager.query('UPDATE users SET balance_minor = $2 WHERE uuid = $1', [userUuid, balanceMinor]);
}

/** Before the ledger rebuilds its read models every balance starts again from zero. */
export async function zeroUserBalances(manager: EntityManager): Promise<void> {
  await manager.query('UPDATE users SET balance_minor = 0 WHERE balance_minor <> 0');
}
