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

/** A client's customer at the card provider, made once per client (docs/adr/0085-saved-cards.md). */
export interface CardCustomerRequest {
  userUuid: string;
  email: string;
}

/** A hosted checkout in setup mode: it saves a card to the client's customer and charges nothing. */
export interface CardSetupRequest {
  userUuid: string;
  customerId: string;
  /** Our id of this attempt to save a card: the key that makes a retried creation the same checkout. */
  setupId: string;
  successUrl: string;
  cancelUrl: string;
}

/** A saved card as the provider describes it: what a person needs to recognise it, never more. */
export interface SavedPaymentMethod {
  paymentMethodId: string;
  /** The customer it is attached to; null once detached. */
  customerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A setup checkout as the provider's API tells it now, with the card it saved once it saved one. */
export interface CardSetupState {
  checkoutSessionId: string;
  /** Our client, as we gave it when creating the checkout; null when it names none. */
  userUuid: string | null;
  setupId: string | null;
  customerId: string | null;
  /** `open`, `complete` or `expired`. */
  status: string;
  /** When the checkout was created, in seconds since the epoch: a newer setup replaces an older one's card. */
  createdSeconds: number;
  /** Set once the setup succeeded. */
  paymentMethod: SavedPaymentMethod | null;
}

/** An off-session charge of a saved card: the renewal sweep's (docs/adr/0085-saved-cards.md). */
export interface OffSessionChargeRequest {
  customerId: string;
  paymentMethodId: string;
  amountMinor: number;
  /**
   * The caller's key for this one attempt: the same key again is the same charge (the provider answers what it
   * answered the first time), so a retried or repeated call never charges twice.
   */
  idempotencyKey: string;
  description: string;
  /** Our references, kept on the provider's payment (the subscription, the renewal attempt). */
  metadata: Readonly<Record<string, string>>;
}

/**
 * How an off-session charge ended: `succeeded` (the money is taken), `requires_action` (the card's bank wants its
 * holder: only an on-session payment can go on), `declined` (the card refused: `code` and the bank's `declineCode`),
 * or `pending` (the provider is still processing it and will tell by webhook).
 */
export type OffSessionChargeOutcome =
  | { outcome: 'succeeded'; paymentIntentId: string; amountMinor: number; currency: string }
  | { outcome: 'requires_action'; paymentIntentId: string | null; code: string }
  | { outcome: 'declined'; paymentIntentId: string | null; code: string; declineCode: string | null }
  | { outcome: 'pending'; paymentIntentId: string };

/**
 * An off-session payment as the provider's API tells it now (never as a webhook's body told it): how it stands, in
 * the terms of `chargeOffSession`'s answer, and the references we gave it.
 */
export interface OffSessionPaymentState {
  paymentIntentId: string;
  outcome: OffSessionChargeOutcome;
  /** Our references (`subscriptionId`, `attemptId`), as given when it was created. */
  metadata: Readonly<Record<string, string>>;
}

/** The PaymentIntent events the card renewals act on (docs/adr/0086-renewals-charged-to-the-saved-card.md). */
export const PAYMENT_INTENT_WEBHOOK_EVENT_TYPES = Object.freeze([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.requires_action',
] as const);

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

  // Saved cards (docs/adr/0085-saved-cards.md): a customer per client, a setup checkout, the card it saved, and
  // off-session charges of that card.

  /** Creates the client's customer; the same client again (a retry) is the same customer. */
  abstract createCustomer(request: CardCustomerRequest): Promise<string>;

  abstract createSetupCheckout(request: CardSetupRequest): Promise<CardCheckout>;

  /** The setup checkout as it stands now, with its saved card; null when the session is not a setup checkout. */
  abstract retrieveSetupCheckout(checkoutSessionId: string): Promise<CardSetupState | null>;

  /**
   * The webhook when it tells that a setup checkout completed (`checkout.session.completed` in setup mode), else null;
   * `error.card.webhook.signature.invalid` (400) when the signature does not hold.
   */
  abstract verifySetupWebhook(rawBody: Buffer | undefined, signature: string | undefined): CardWebhookEvent | null;

  /** Detaches a saved card from its customer, for good; a card already detached is not an error. */
  abstract detachPaymentMethod(paymentMethodId: string): Promise<void>;

  /** Creates and confirms a payment of the saved card without its holder, under the caller's idempotency key. */
  abstract chargeOffSession(request: OffSessionChargeRequest): Promise<OffSessionChargeOutcome>;

  /** An off-session payment as it stands now; null when the provider knows no such PaymentIntent. */
  abstract retrievePaymentIntent(paymentIntentId: string): Promise<OffSessionPaymentState | null>;

  /**
   * The PaymentIntent a webhook is about when it is one of `PAYMENT_INTENT_WEBHOOK_EVENT_TYPES`, else null;
   * `error.card.webhook.signature.invalid` (400) when the signature does not hold.
   */
  abstract verifyPaymentIntentWebhook(
    rawBody: Buffer | undefined,
    signature: string | undefined,
  ): { id: string; type: string; paymentIntentId: string } | null;
}
