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
