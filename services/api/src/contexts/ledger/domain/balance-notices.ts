import { lowBalanceCrossed, USER_ACCOUNT_PREFIX } from '@kupa/proto';

/*
 * The low-balance notice's rule over the ledger (ADR 0102, 0105): each event that moves a client's balance is one
 * movement from the balance before it to the balance after it; a movement that takes the balance from at least the
 * person's threshold to under it is a crossing, told once. A balance already under stays quiet however far it falls,
 * and the next crossing needs it to have come back up to the threshold first: the rule needs no memory of notices
 * sent, only the balances the ledger's entries already keep.
 */

/** One user-account entry of a transaction, in booking order, with the running balance the ledger kept. */
export interface BalanceEntry {
  transactionId: string;
  account: string;
  amountMinor: number;
  balanceAfterMinor: number;
}

/** What one transaction did to one client's balance. */
export interface BalanceMovement {
  transactionId: string;
  userUuid: string;
  beforeMinor: number;
  afterMinor: number;
}

/**
 * Each client's balance before and after each transaction, from its entries in booking order: a transaction that
 * touches one balance twice is one movement, from before its first entry to after its last.
 */
export function balanceMovements(entries: readonly BalanceEntry[]): BalanceMovement[] {
  const movements = new Map<string, BalanceMovement>();
  for (const entry of entries) {
    if (!entry.account.startsWith(USER_ACCOUNT_PREFIX)) continue;
    const key = `${entry.transactionId} ${entry.account}`;
    const known = movements.get(key);
    if (known) known.afterMinor = entry.balanceAfterMinor;
    else
      movements.set(key, {
        transactionId: entry.transactionId,
        userUuid: entry.account.slice(USER_ACCOUNT_PREFIX.length),
        beforeMinor: entry.balanceAfterMinor - entry.amountMinor,
        afterMinor: entry.balanceAfterMinor,
      });
  }
  return [...movements.values()];
}

/** A low-balance notice due: whose balance crossed, to what, under which threshold. */
export interface LowBalanceCrossing extends BalanceMovement {
  thresholdMinor: number;
}

/**
 * The movements that cross their client's threshold downwards; a client without a threshold is never told. The
 * threshold is the one the client has now, so a notice follows the setting of the moment it is written.
 */
export function lowBalanceCrossings(
  movements: readonly BalanceMovement[],
  thresholdOf: (userUuid: string) => number | null,
): LowBalanceCrossing[] {
  return movements.flatMap((movement) => {
    const thresholdMinor = thresholdOf(movement.userUuid);
    return thresholdMinor !== null && lowBalanceCrossed(movement.beforeMinor, movement.afterMinor, thresholdMinor)
      ? [{ ...movement, thresholdMinor }]
      : [];
  });
}

/** The top-up that brings the balance back to the threshold: what the notice's one-click link asks for. */
export function lowBalanceTopUpMinor(crossing: LowBalanceCrossing): number {
  return Math.max(1, crossing.thresholdMinor - crossing.afterMinor);
}
