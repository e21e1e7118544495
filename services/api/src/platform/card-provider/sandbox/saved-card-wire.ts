/**
 * The sandbox card's saved cards in Stripe's wire shape (docs/adr/0087-sandbox-saved-cards.md): the test cards a
 * client may pick on the setup page, how each behaves when charged off-session, and the objects and errors the
 * `stripe` SDK reads back. Pure, so that its spec runs without a server.
 */
import { stripeEventPayload } from './checkout-session';

/**
 * The setup page's test cards, as Stripe's test cards behave off-session: one that pays (4242), one whose bank
 * declines for want of funds (9995), one whose bank wants its holder (3184, `authentication_required`).
 */
export const SANDBOX_TEST_CARDS = Object.freeze({
  pays: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, declineCode: null },
  'insufficient-funds': {
    brand: 'visa',
    last4: '9995',
    expMonth: 12,
    expYear: 2034,
    declineCode: 'insufficient_funds',
  },
  authentication: {
    brand: 'visa',
    last4: '3184',
    expMonth: 12,
    expYear: 2034,
    declineCode: 'authentication_required',
  },
} as const);

export type SandboxTestCard = keyof typeof SANDBOX_TEST_CARDS;

export function isSandboxTestCard(value: unknown): value is SandboxTestCard {
  return typeof value === 'string' && Object.hasOwn(SANDBOX_TEST_CARDS, value);
}

/** An answer in Stripe's terms: its HTTP status and body, replayed as they are for the same idempotency key. */
export interface StripeWireAnswer {
  status: number;
  body: unknown;
}

/** Stripe's refusal of a request, in the shape its SDK turns into `StripeInvalidRequestError` (or the type's error). */
export function stripeRefusal(status: number, message: string, extra: Record<string, unknown> = {}): StripeWireAnswer {
  return { status, body: { error: { type: 'invalid_request_error', message, ...extra } } };
}

/** A setup-mode Checkout Session, as Stripe answers it. */
export interface SetupSessionWire {
  id: string;
  object: 'checkout.session';
  mode: 'setup';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'no_payment_required';
  customer: string;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  /** The SetupIntent's id, or the SetupIntent itself when the retrieve call asked to expand it. */
  setup_intent: string | SetupIntentWire | null;
  success_url: string;
  cancel_url: string;
  created: number;
  livemode: false;
}

export interface SetupIntentWire {
  id: string;
  object: 'setup_intent';
  status: 'succeeded';
  customer: string;
  usage: 'off_session';
  metadata: Record<string, string>;
  /** The saved card's id, or the card itself when expanded. */
  payment_method: string | PaymentMethodWire;
  livemode: false;
}

export interface PaymentMethodWire {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit' };
  livemode: false;
}

/** What a setup session's create call asks for, read from the SDK's form, or why Stripe would refuse it. */
export interface SetupSessionRequest {
  customer: string;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
}

export function setupSessionRequestOf(form: Readonly<Record<string, string>>): SetupSessionRequest | string {
  if (form.mode !== 'setup') return 'mode must be setup';
  if (!form.customer) return 'a setup session needs a customer';
  if (!isWebAddress(form.success_url) || !isWebAddress(form.cancel_url))
    return 'success_url and cancel_url are required';
  return {
    customer: form.customer,
    currency: form.currency ? form.currency.toLowerCase() : null,
    client_reference_id: form.client_reference_id ?? null,
    metadata: bracketed(form, 'metadata'),
    success_url: form.success_url,
    cancel_url: form.cancel_url,
  };
}

export function paymentMethodWire(
  paymentMethodId: string,
  customerId: string | null,
  card: SandboxTestCard,
): PaymentMethodWire {
  const test = SANDBOX_TEST_CARDS[card];
  return {
    id: paymentMethodId,
    object: 'payment_method',
    type: 'card',
    customer: customerId,
    card: { brand: test.brand, last4: test.last4, exp_month: test.expMonth, exp_year: test.expYear, funding: 'credit' },
    livemode: false,
  };
}

/** What an off-session create-and-confirm asks for, read from the SDK's form, or why Stripe would refuse it. */
export interface OffSessionPaymentRequest {
  amount: number;
  currency: string;
  customer: string;
  payment_method: string;
  description: string | null;
  metadata: Record<string, string>;
}

export function offSessionPaymentRequestOf(form: Readonly<Record<string, string>>): OffSessionPaymentRequest | string {
  const amount = Number(form.amount);
  if (!Number.isSafeInteger(amount) || amount <= 0) return 'amount must be a positive integer';
  if (!form.currency) return 'currency is required';
  if (form.confirm !== 'true' || form.off_session !== 'true')
    return 'The sandbox card makes only off-session payments confirmed at once (confirm and off_session true)';
  if (!form.customer || !form.payment_method) return 'customer and payment_method are required';
  return {
    amount,
    currency: form.currency.toLowerCase(),
    customer: form.customer,
    payment_method: form.payment_method,
    description: form.description ?? null,
    metadata: bracketed(form, 'metadata'),
  };
}

/**
 * An off-session payment of a saved test card, as Stripe ends it: the card that pays makes a succeeded
 * PaymentIntent (200); the others a PaymentIntent that needs another method, answered as Stripe's card error (402)
 * with the code, the bank's decline code and the PaymentIntent, which the SDK raises as `StripeCardError`.
 */
export function offSessionPayment(
  paymentIntentId: string,
  request: OffSessionPaymentRequest,
  card: SandboxTestCard,
  createdSeconds: number,
): { intent: Record<string, unknown>; answer: StripeWireAnswer } {
  const { declineCode } = SANDBOX_TEST_CARDS[card];
  const code = declineCode === 'authentication_required' ? 'authentication_required' : 'card_declined';
  const message =
    declineCode === null
      ? null
      : code === 'authentication_required'
        ? 'Your card was declined. This transaction requires authentication.'
        : 'Your card has insufficient funds.';
  const lastPaymentError =
    declineCode === null
      ? null
      : {
          type: 'card_error',
          code,
          decline_code: declineCode,
          message,
          payment_method: { id: request.payment_method },
        };
  const intent = {
    id: paymentIntentId,
    object: 'payment_intent',
    amount: request.amount,
    amount_received: declineCode === null ? request.amount : 0,
    currency: request.currency,
    customer: request.customer,
    payment_method: declineCode === null ? request.payment_method : null,
    confirmation_method: 'automatic',
    status: declineCode === null ? 'succeeded' : 'requires_payment_method',
    last_payment_error: lastPaymentError,
    description: request.description,
    metadata: request.metadata,
    created: createdSeconds,
    livemode: false,
  };
  if (lastPaymentError === null) return { intent, answer: { status: 200, body: intent } };
  return {
    intent,
    answer: {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code,
          decline_code: declineCode,
          message,
          payment_intent: intent,
          payment_method: { id: request.payment_method, object: 'payment_method' },
        },
      },
    },
  };
}

/**
 * A webhook event about a setup session as it now is, as Stripe writes one: our webhook route reads its type and
 * mode and then asks the API for the session itself.
 */
export function setupSessionEvent(
  eventId: string,
  type: string,
  session: SetupSessionWire,
  createdSeconds: number,
): string {
  return stripeEventPayload(eventId, type, session, createdSeconds);
}

/**
 * What identifies a POST for idempotency: its path and its parameters in a fixed order. Stripe answers a key seen
 * before with its first answer only for the same request; with other parameters it refuses the key.
 */
export function idempotentRequestOf(path: string, form: Readonly<Record<string, string>>): string {
  return `${path} ${JSON.stringify(Object.entries(form).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
}

export const IDEMPOTENCY_KEY_REUSED: StripeWireAnswer = {
  status: 400,
  body: {
    error: {
      type: 'idempotency_error',
      message:
        'Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than the one you used.',
    },
  },
};

function bracketed(form: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const name = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key)?.[1];
    if (name) values[name] = value;
  }
  return values;
}

function isWebAddress(value: string | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}
