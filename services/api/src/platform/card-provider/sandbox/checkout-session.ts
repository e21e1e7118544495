/**
 * A Stripe Checkout Session in Stripe's wire shape, as a Stripe-compatible server answers it: the fields our card
 * adapter reads and a few more. Shared by the sandbox card (docs/adr/0080-sandbox-card-checkout.md) and the tests'
 * fake Stripe, so that both read the SDK's create call the same way.
 */
export interface CheckoutSessionWire {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  created: number;
  livemode: false;
}

/** What the create call asks for, read from its form: everything but the id, the page's address and the instant. */
export type CheckoutSessionRequest = Pick<
  CheckoutSessionWire,
  | 'mode'
  | 'amount_total'
  | 'currency'
  | 'client_reference_id'
  | 'customer_email'
  | 'metadata'
  | 'success_url'
  | 'cancel_url'
> & {
  /** The first line's product name, for the checkout page to show. */
  productName: string;
};

/**
 * Reads `POST /v1/checkout/sessions`'s form-encoded body (flat keys such as `line_items[0][price_data][unit_amount]`,
 * as the SDK writes them) into what the session will be, or answers why Stripe would refuse it. Only what our
 * adapter sends is understood: one priced line in payment mode.
 */
export function checkoutSessionRequestOf(form: Readonly<Record<string, string>>): CheckoutSessionRequest | string {
  const unitAmountMinor = Number(form['line_items[0][price_data][unit_amount]']);
  const quantity = Number(form['line_items[0][quantity]'] ?? 1);
  const currency = form['line_items[0][price_data][currency]'];
  if (form.mode !== 'payment') return 'mode must be payment';
  if (!Number.isSafeInteger(unitAmountMinor) || unitAmountMinor <= 0 || !currency)
    return 'a line item needs a positive unit_amount';
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return 'a line item needs a positive quantity';
  if (!Number.isSafeInteger(unitAmountMinor * quantity)) return 'the amount is too large';
  if (!isWebAddress(form.success_url) || !isWebAddress(form.cancel_url))
    return 'success_url and cancel_url are required';
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  return {
    mode: form.mode,
    amount_total: unitAmountMinor * quantity,
    currency: currency.toLowerCase(),
    client_reference_id: form.client_reference_id ?? null,
    customer_email: form.customer_email ?? null,
    metadata,
    success_url: form.success_url,
    cancel_url: form.cancel_url,
    productName: form['line_items[0][price_data][product_data][name]'] ?? '',
  };
}

/** The customer paid on the checkout page: complete and paid, with the payment that took the money. */
export function paidCheckoutSession(session: CheckoutSessionWire, paymentIntent: string): CheckoutSessionWire {
  if (session.status !== 'open') return session;
  return { ...session, status: 'complete', payment_status: 'paid', payment_intent: paymentIntent };
}

/** Closed for payment, as Stripe's expire call does; only an open session can be expired. */
export function expiredCheckoutSession(session: CheckoutSessionWire): CheckoutSessionWire | string {
  if (session.status !== 'open') return 'Only Checkout Sessions with a status in ["open"] can be expired.';
  return { ...session, status: 'expired' };
}

/**
 * A webhook event about the session as it now is, as Stripe writes one: our webhook route reads its id and type and
 * then asks the API for the session itself.
 */
export function checkoutSessionEvent(
  eventId: string,
  type: string,
  session: CheckoutSessionWire,
  createdSeconds: number,
): string {
  return stripeEventPayload(eventId, type, session, createdSeconds);
}

/**
 * Stripe's event envelope around one object as it now is (a checkout or setup session, a PaymentIntent): what the
 * sandbox card posts to our webhook route and the tests' fake Stripe signs.
 */
export function stripeEventPayload(eventId: string, type: string, object: object, createdSeconds: number): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-01-01',
    created: createdSeconds,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: { ...object } },
  });
}

function isWebAddress(value: string | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value);
}
