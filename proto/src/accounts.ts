/**
 * Ledger accounts (docs/product.md, Ledger). Money enters and leaves through `world:*`, is earned in `revenue:*`, is
 * spent by the house in `expense:*`, is owed to holders of vouchers in `liability:*`, and belongs to a client in `user:{uuid}`.
 */
export const SYSTEM_ACCOUNTS = Object.freeze([
  'world:stripe',
  'world:cashier',
  /** Crypto deposits paid on the sandbox cashier: money nobody paid, kept apart so no total mixes it with real money. */
  'world:sandbox-cashier',
  /** Card payments settled through the sandbox card (ADR 0080): money nobody paid, kept apart from Stripe's. */
  'world:sandbox-card',
  'world:manual',
  'revenue:subscriptions',
  'expense:bonus',
  'expense:adjustment',
  'expense:refund',
  /** What vouchers given away cost the house (ADR 0089). */
  'expense:promo',
  /** Goodwill credited to clients by a bulk operation (ADR 0090): an outage's compensation, say. */
  'expense:goodwill',
  /** Money of sold or given vouchers not yet redeemed: owed to whoever holds the codes (ADR 0089). */
  'liability:vouchers',
] as const);
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export const USER_ACCOUNT_PREFIX = 'user:';
export type UserAccount = `user:${string}`;
export type LedgerAccount = SystemAccount | UserAccount;

export function userAccount(userUuid: string): UserAccount {
  return `${USER_ACCOUNT_PREFIX}${userUuid}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isLedgerAccount(value: string): value is LedgerAccount {
  if ((SYSTEM_ACCOUNTS as readonly string[]).includes(value)) return true;
  return value.startsWith(USER_ACCOUNT_PREFIX) && UUID.test(value.slice(USER_ACCOUNT_PREFIX.length));
}
