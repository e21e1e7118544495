import type { Bilingual } from './bilingual';

/**
 * Card checkout (docs/adr/0029-card-checkout.md): the client pays a package's price on the card provider's hosted
 * checkout page, and the provider's signed webhooks tell us when the money arrived.
 */
/**
 * Who holds a card checkout: Stripe, or the sandbox card that stands in for it where the sandboxes run without a
 * Stripe key (docs/adr/0080-sandbox-card-checkout.md), whose money nobody paid.
 */
export const CARD_PROVIDERS = Object.freeze(['STRIPE', 'SANDBOX'] as const);
export type CardProvider = (typeof CARD_PROVIDERS)[number];

/** Who held a card payment's checkout, as a client reads it (a sandbox card's money was never paid, ADR 0080). */
export const CARD_PROVIDER_LABELS: Readonly<Record<CardProvider, Bilingual>> = Object.freeze({
  STRIPE: { he: 'Stripe', en: 'Stripe' },
  SANDBOX: { he: 'כרטיס הניסוי (לא כסף אמיתי)', en: 'Sandbox card (not real money)' },
});

/**
 * Where a checkout stands at the provider, as we last learnt it: Stripe's `payment_status` of the checkout session
 * (`unpaid`, `paid`, `no_payment_required`), or `failed` (a delayed payment method failed) and `expired` (the session
 * expired unpaid).
 */
export const CARD_PROVIDER_STATUSES = Object.freeze([
  'unpaid',
  'paid',
  'no_payment_required',
  'failed',
  'expired',
] as const);
export type CardProviderStatus = (typeof CARD_PROVIDER_STATUSES)[number];

export const CARD_PROVIDER_STATUS_LABELS: Readonly<Record<CardProviderStatus, Bilingual>> = Object.freeze({
  unpaid: { he: 'ממתין לתשלום', en: 'Waiting for payment' },
  paid: { he: 'שולם', en: 'Paid' },
  no_payment_required: { he: 'לא נדרש תשלום', en: 'No payment required' },
  failed: { he: 'התשלום נכשל', en: 'Payment failed' },
  expired: { he: 'פג תוקף', en: 'Expired' },
});

/** The currency every provider is asked in (ISO 4217, as Stripe and NOWPayments write it): what a paid report must say. */
export const PROVIDER_CURRENCY = 'usd';

/**
 * A paid checkout whose currency or total is not what was asked (docs/adr/0058-money-paths-keep-their-promises.md):
 * nothing is credited, the payment waits in `REVIEW` for staff, and this says what the provider reported.
 */
export interface CardReportedMismatch {
  /** The session's currency as the provider reported it; null when it reported none. */
  currency: string | null;
  /** The session's `amount_total` in the minor units of that currency. */
  amountTotalMinor: number;
}

export function isCardProviderStatus(value: unknown): value is CardProviderStatus {
  return typeof value === 'string' && (CARD_PROVIDER_STATUSES as readonly string[]).includes(value);
}

/** The provider's side of a card payment, as staff and the payment's owner read it. Amounts in dollars. */
export interface PaymentCard {
  provider: CardProvider;
  /** The provider's checkout session (`cs_…`). */
  checkoutSessionId: string;
  /** The provider's payment (Stripe's payment intent `pi_…`), once the provider reported one; null before. */
  providerPaymentId: string | null;
  /** Where the checkout stands at the provider; `unpaid` until the first report. */
  providerStatus: CardProviderStatus;
  amountAsked: number;
  /** What arrived and was credited to the balance. */
  amountReceived: number;
  /**
   * A paid checkout whose currency or amount differed from what was asked, as the provider reported it (the payment
   * is then `REVIEW` and nothing was credited); null otherwise. `amount` is in that currency's major units.
   */
  reported: { currency: string | null; amount: number } | null;
}

/**
 * The query parameter of a sandbox card checkout's link that carries its key
 * (docs/adr/0080-sandbox-card-checkout.md): whoever holds the link may pay on the test page, nobody by guessing.
 */
export const SANDBOX_CHECKOUT_SIGNATURE_PARAM = 'signature';
