import type { Plan } from '@kupa/proto';

/** How a package is paid for: from the balance, by a crypto deposit that buys it on arrival, or by card. */
export type PayWith = 'balance' | 'crypto' | 'card';

/**
 * The ways this package can be paid for now: the balance always (refused while it is short); a crypto deposit-and-buy
 * where the balance is short and the deployment has a crypto cashier; a card where the deployment takes cards and the
 * package allows them.
 */
export function payOptions(
  plan: Plan,
  balanceShort: boolean,
  available: { card: boolean; crypto: boolean },
): PayWith[] {
  return [
    'balance',
    ...(balanceShort && available.crypto ? (['crypto'] as const) : []),
    ...(available.card && plan.cardPaymentAllowed !== false ? (['card'] as const) : []),
  ];
}

/** How renewing a subscription is paid for: from the balance, or by a crypto deposit that renews it on arrival. */
export type RenewPayWith = Extract<PayWith, 'balance' | 'crypto'>;

/**
 * The ways a renewal can be paid for now: the balance always (refused while it is short), and a crypto
 * deposit-and-renew wherever the deployment has a crypto cashier, whatever the balance (docs/product.md,
 * Subscriptions).
 */
export function renewalPayOptions(available: { crypto: boolean }): RenewPayWith[] {
  return available.crypto ? ['balance', 'crypto'] : ['balance'];
}

/** What a renewal's choice starts on, or stays on while still offered: the balance when it is enough, else crypto. */
export function renewalPayWith(
  options: RenewPayWith[],
  balanceShort: boolean,
  chosen: RenewPayWith | null,
): RenewPayWith {
  if (chosen !== null && options.includes(chosen)) return chosen;
  return balanceShort && options.includes('crypto') ? 'crypto' : 'balance';
}
