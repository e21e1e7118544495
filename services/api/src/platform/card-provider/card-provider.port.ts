import type { CardProvider as CardProviderName, CardProviderStatus } from '@kupa/proto';

/** What we ask the provider to charge: one line, the package, in US cents. */
export interface CardCheckoutRequest {
  /** Our payment id: the checkout's reference, and the key that makes a retried creation the same checkout. */
  paymentId: number;
  amountMinor: number;
  productName: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CardCheckout {
  checkoutSessionId: string;
  url: string;
}

/** A checkout as the provider's API tells it now (never as a webhook's body told it). */
export interface CardCheckoutState {
  checkoutSessionId: string;
  /** Our payment id, as we gave it when creating the checkout; null when it names none. */
  paymentId: number | null;
  /** `open`, `complete` or `expired`. */
  status: string;
  /** `unpaid`, `paid` or `no_payment_required`. */
  paymentStatus: string;
  amountTotalMinor: number | null;
  currency: string | null;
  /** The provider's payment (Stripe's payment intent), once there is one. */
  providerPaymentId: string | null;
}

/** A webhook whose signature held. */
export interface CardWebhookEvent {
  id: string;
  type: string;
  /** The checkout session the event is about, when it is about one. */
  checkoutSessionId: string | null;
}

/** The header carrying a webhook's signature. */
export const CARD_WEBHOOK_SIGNATURE_HEADER = 'stripe-signature';

/** The webhook event types we act on; others are acknowledged and ignored. */
export const CARD_WEBHOOK_EVENT_TYPES = Object.freeze([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const);

/**
 * Where a checkout stands, from the provider's current view of it and the event that made us ask: paid is paid
 * whatever the event says (events arrive out of order); a failed delayed payment is only known from its event.
 */
export function cardStatusOf(checkout: CardCheckoutState, eventType: string): CardProviderStatus {
  if (checkout.paymentStatus === 'paid') return 'paid';
  if (checkout.paymentStatus === 'no_payment_required') return 'no_payment_required';
  if (eventType === 'checkout.session.async_payment_failed') return 'failed';
  if (checkout.status === 'expired') return 'expired';
  return 'unpaid';
}

/**
 * The card provider's outside edge (docs/adr/0029-card-checkout.md): hosted checkouts and their signed webhooks. No
 * business rule lives here; the ledger decides what an answer means for money. Unconfigured (`STRIPE_SECRET_KEY` or
 * `STRIPE_WEBHOOK_SECRET` unset), every call answers `error.card.provider.unavailable` (503).
 */
export abstract class CardProvider {
  /** Whether card checkout can be offered at all. */
  abstract get available(): boolean;

  /**
   * Who this provider is, as payments record it: `SANDBOX` when the sandbox card stands in for Stripe (its webhooks
   * are signed with the sandbox's secret, its API is our own), `STRIPE` otherwise (docs/adr/0080-sandbox-card-checkout.md).
   */
  abstract get name(): CardProviderName;

  abstract createCheckout(request: CardCheckoutRequest): Promise<CardCheckout>;

  abstract retrieveCheckout(checkoutSessionId: string): Promise<CardCheckoutState>;

  /** Closes an open checkout, so that nobody can pay it any more; answers the checkout as it then stands. */
  abstract expireCheckout(checkoutSessionId: string): Promise<CardCheckoutState>;

  /** Verifies the signature over the raw body; `error.card.webhook.signature.invalid` (400) when it does not hold. */
  abstract verifyWebhook(rawBody: Buffer | undefined, signature: string | undefined): CardWebhookEvent;
}
