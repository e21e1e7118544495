import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { type CheckoutSessionWire, checkoutSessionRequestOf, stripeEventPayload } from '../platform/card-provider';

/** The test keys the fake accepts; the SDK under test is configured with them. */
export const FAKE_STRIPE_SECRET_KEY = 'sk_test_kupa_fake';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_kupa_fake';

/**
 * A card provider configured at an address nothing answers on: for specs that call every route (the route matrix,
 * hostile and fuzzed input), so that the card routes answer by their guards, validation and signature check rather
 * than 503 for want of configuration. No such call gets as far as asking Stripe: a card top-up whose amount is
 * valid would, so card balance payments are off and it is refused by that switch (409, ADR 0082).
 */
export const UNREACHABLE_STRIPE_ENV: Readonly<Record<string, string>> = Object.freeze({
  STRIPE_SECRET_KEY: 'sk_test_unreachable',
  STRIPE_WEBHOOK_SECRET: 'whsec_unreachable',
  STRIPE_API_BASE: 'http://127.0.0.1:9',
  CARD_BALANCE_PAYMENTS: '0',
});

/** A checkout session as the fake keeps it: Stripe's wire shape, as the sandbox card serves it too. */
export type FakeCheckoutSession = CheckoutSessionWire;

export interface FakeStripeRequest {
  method: string;
  path: string;
  /** The form-encoded body, decoded to its flat keys (`line_items[0][price_data][unit_amount]`). */
  form: Record<string, string>;
  idempotencyKey: string | null;
}

/**
 * The fake's test cards for saved cards (docs/adr/0085-saved-cards.md), as Stripe's test cards behave off-session: one
 * that pays, one whose bank declines (`card_declined`), one whose bank wants its holder (`authentication_required`).
 */
export const FAKE_TEST_CARDS = Object.freeze({
  visa: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, offSession: 'succeeds' },
  declined: { brand: 'visa', last4: '0002', expMonth: 11, expYear: 2033, offSession: 'card_declined' },
  authentication: {
    brand: 'mastercard',
    last4: '3184',
    expMonth: 10,
    expYear: 2032,
    offSession: 'authentication_required',
  },
  /** A card whose payment stays `processing` until the spec settles it (`settlePaymentIntent`). */
  processing: { brand: 'visa', last4: '1117', expMonth: 9, expYear: 2031, offSession: 'processing' },
} as const);

export type FakeTestCard = keyof typeof FAKE_TEST_CARDS;

/** A setup-mode checkout session as the fake keeps it, in Stripe's wire shape. */
export interface FakeSetupSession {
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
  setup_intent: string | null;
  success_url: string;
  cancel_url: string;
  created: number;
  livemode: false;
}

/** A saved card at the fake: which customer holds it (null once detached) and how it behaves off-session. */
export interface FakePaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  testCard: FakeTestCard;
}

/** An off-session payment the fake made, as Stripe's PaymentIntent. */
export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  customer: string;
  payment_method: string;
  status: 'succeeded' | 'requires_payment_method' | 'processing';
  last_payment_error: { code: string; decline_code: string | null; message: string } | null;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

interface FakeAnswer {
  status: number;
  body: unknown;
}

function metadataOf(form: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  const pattern = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[(.+)\\]$`);
  for (const [key, value] of Object.entries(form)) {
    const name = pattern.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}

function refusal(status: number, message: string, extra: Record<string, unknown> = {}): FakeAnswer {
  return { status, body: { error: { type: 'invalid_request_error', message, ...extra } } };
}

function id(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString('hex')}`;
}

/**
 * A local Stripe API for the real `stripe` SDK (pointed here by `STRIPE_API_BASE`): the two Checkout Session calls
 * the card adapter makes, `POST /v1/checkout/sessions` and `GET /v1/checkout/sessions/{id}`, with Stripe's bearer
 * key check, form-encoded bodies and idempotency keys. Specs move a session along (`pay`, `complete`, `expire`) as a
 * customer would, and build webhook events signed the way Stripe signs them (`signedEvent`).
 */
export class FakeStripe {
  readonly sessions = new Map<string, FakeCheckoutSession>();
  readonly requests: FakeStripeRequest[] = [];
  /** While true, every call answers 500 (a provider outage). */
  failing = false;
  private readonly byIdempotencyKey = new Map<string, FakeCheckoutSession>();
  // Saved cards (docs/adr/0085-saved-cards.md): customers, setup-mode sessions, saved cards and off-session payments.
  readonly customers = new Map<string, { id: string; email: string | null; metadata: Record<string, string> }>();
  readonly setupSessions = new Map<string, FakeSetupSession>();
  readonly setupIntents = new Map<string, { id: string; status: string; payment_method: string | null }>();
  readonly paymentMethods = new Map<string, FakePaymentMethod>();
  readonly paymentIntents = new Map<string, FakePaymentIntent>();
  /** What each idempotency key of the saved-card calls answered, replayed for the same key (as Stripe does). */
  private readonly savedCardReplies = new Map<string, { request: string; answer: FakeAnswer }>();
  private readonly sdk = new Stripe(FAKE_STRIPE_SECRET_KEY);

  private constructor(
    private readonly server: Server,
    readonly apiBase: string,
  ) {}

  static async start(): Promise<FakeStripe> {
    let fake: FakeStripe | null = null;
    const server = createServer((request, response) => {
      void fake?.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeStripe(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  /** The environment that points the API at this fake. */
  env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: this.apiBase,
    };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  session(sessionId: string): FakeCheckoutSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`The fake knows no checkout session ${sessionId}`);
    return session;
  }

  /** The customer finished the checkout: paid at once (a card), or `unpaid` while a delayed method settles. */
  complete(sessionId: string, paid: boolean): FakeCheckoutSession {
    const session = this.session(sessionId);
    session.status = 'complete';
    session.payment_status = paid ? 'paid' : 'unpaid';
    session.payment_intent ??= id('pi');
    return session;
  }

  /** A delayed payment method settled. */
  pay(sessionId: string): FakeCheckoutSession {
    return this.complete(sessionId, true);
  }

  expire(sessionId: string): FakeCheckoutSession {
    const session = this.session(sessionId);
    session.status = 'expired';
    return session;
  }

  /** A webhook event about the session as it is now, with the `Stripe-Signature` header Stripe would send. */
  signedEvent(
    type: string,
    sessionId: string,
    options: { eventId?: string; secret?: string } = {},
  ): { eventId: string; payload: string; signature: string } {
    return this.signedObjectEvent(type, this.session(sessionId), options);
  }

  /** The client finished a setup checkout with one of the test cards: saved to the session's customer. */
  completeSetup(sessionId: string, card: FakeTestCard = 'visa'): FakePaymentMethod {
    const session = this.setupSessions.get(sessionId);
    if (!session) throw new Error(`The fake knows no setup session ${sessionId}`);
    const test = FAKE_TEST_CARDS[card];
    const method: FakePaymentMethod = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      customer: session.customer,
      card: { brand: test.brand, last4: test.last4, exp_month: test.expMonth, exp_year: test.expYear },
      testCard: card,
    };
    this.paymentMethods.set(method.id, method);
    const intent = { id: id('seti'), status: 'succeeded', payment_method: method.id };
    this.setupIntents.set(intent.id, intent);
    session.status = 'complete';
    session.setup_intent = intent.id;
    return method;
  }

  /** A webhook event about a setup session as it is now, signed as Stripe signs them. */
  signedSetupEvent(
    type: string,
    sessionId: string,
    options: { eventId?: string; secret?: string } = {},
  ): { eventId: string; payload: string; signature: string } {
    const session = this.setupSessions.get(sessionId);
    if (!session) throw new Error(`The fake knows no setup session ${sessionId}`);
    return this.signedObjectEvent(type, session, options);
  }

  /** The off-session payments made for one subscription (its renewal attempts' metadata names it). */
  offSessionPaymentsOf(subscriptionId: string): FakePaymentIntent[] {
    return [...this.paymentIntents.values()].filter((intent) => intent.metadata.subscriptionId === subscriptionId);
  }

  /** The bank decided a `processing` payment: it succeeded, or it failed as a declined card. */
  settlePaymentIntent(paymentIntentId: string, succeeded: boolean): FakePaymentIntent {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`The fake knows no payment intent ${paymentIntentId}`);
    intent.status = succeeded ? 'succeeded' : 'requires_payment_method';
    intent.last_payment_error = succeeded
      ? null
      : { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    return intent;
  }

  /** A webhook event about a payment intent as it is now, signed as Stripe signs them. */
  signedPaymentIntentEvent(
    type: string,
    paymentIntentId: string,
    options: { eventId?: string; secret?: string } = {},
  ): { eventId: string; payload: string; signature: string } {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`The fake knows no payment intent ${paymentIntentId}`);
    return this.signedObjectEvent(type, intent, options);
  }

  /** Stripe's envelope around one object as it is now, with the `Stripe-Signature` header Stripe would send. */
  private signedObjectEvent(
    type: string,
    object: object,
    options: { eventId?: string; secret?: string },
  ): { eventId: string; payload: string; signature: string } {
    const eventId = options.eventId ?? id('evt');
    const payload = stripeEventPayload(eventId, type, object, Math.floor(Date.now() / 1000));
    const signature = this.sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? FAKE_STRIPE_WEBHOOK_SECRET,
    });
    return { eventId, payload, signature };
  }

  /**
   * The saved-card calls (customers, setup sessions, setup intents, payment methods and their detach, off-session
   * payment intents), or null for a call this part does not answer. A POST with an idempotency key answers what the
   * key's first call answered; the same key with other parameters is refused, as Stripe refuses it.
   */
  private handleSavedCards(
    method: string,
    path: string,
    form: Record<string, string>,
    idempotencyKey: string | null,
  ): FakeAnswer | null {
    const isSetupSessionCreate = method === 'POST' && path === '/v1/checkout/sessions' && form.mode === 'setup';
    const isOwnPost =
      method === 'POST' &&
      (isSetupSessionCreate ||
        path === '/v1/customers' ||
        path === '/v1/payment_intents' ||
        /^\/v1\/payment_methods\/[A-Za-z0-9_]+\/detach$/.test(path));
    if (isOwnPost && idempotencyKey !== null) {
      const request = `${path} ${JSON.stringify(Object.entries(form).sort())}`;
      const known = this.savedCardReplies.get(idempotencyKey);
      if (known)
        return known.request === request
          ? known.answer
          : refusal(400, 'Keys for idempotent requests can only be used with the same parameters', {
              type: 'idempotency_error',
            });
      const answer = this.answerSavedCards(method, path, form);
      if (answer) this.savedCardReplies.set(idempotencyKey, { request, answer });
      return answer;
    }
    return this.answerSavedCards(method, path, form);
  }

  private answerSavedCards(method: string, path: string, form: Record<string, string>): FakeAnswer | null {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), email: form.email ?? null, metadata: metadataOf(form, 'metadata') };
      this.customers.set(customer.id, customer);
      return { status: 200, body: { ...customer, object: 'customer', livemode: false } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions' && form.mode === 'setup') {
      if (!form.customer || !this.customers.has(form.customer)) return refusal(400, 'No such customer');
      if (!/^https?:\/\/\S+$/.test(form.success_url ?? '') || !/^https?:\/\/\S+$/.test(form.cancel_url ?? ''))
        return refusal(400, 'success_url and cancel_url are required');
      const sessionId = id('cs');
      const session: FakeSetupSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'setup',
        url: `https://checkout.stripe.test/c/setup/${sessionId}`,
        status: 'open',
        payment_status: 'no_payment_required',
        customer: form.customer,
        currency: form.currency ?? null,
        client_reference_id: form.client_reference_id ?? null,
        metadata: metadataOf(form, 'metadata'),
        setup_intent: null,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      this.setupSessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && sessionMatch && this.setupSessions.has(sessionMatch[1]))
      return { status: 200, body: this.setupSessions.get(sessionMatch[1]) };
    const intentMatch = /^\/v1\/setup_intents\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && intentMatch) {
      const intent = this.setupIntents.get(intentMatch[1]);
      return intent
        ? { status: 200, body: { ...intent, object: 'setup_intent' } }
        : refusal(404, 'No such setupintent');
    }
    const methodMatch = /^\/v1\/payment_methods\/([A-Za-z0-9_]+)(\/detach)?$/.exec(path);
    if (methodMatch && (method === 'GET' || (method === 'POST' && methodMatch[2]))) {
      const paymentMethod = this.paymentMethods.get(methodMatch[1]);
      if (!paymentMethod) return refusal(404, 'No such PaymentMethod');
      if (method === 'POST') {
        if (paymentMethod.customer === null)
          return refusal(
            400,
            'The payment method you provided is not attached to a customer so detachment is impossible.',
          );
        paymentMethod.customer = null;
      }
      const { testCard: _testCard, ...wire } = paymentMethod;
      return { status: 200, body: wire };
    }
    if (method === 'POST' && path === '/v1/payment_intents') return this.offSessionPayment(form);
    const paymentIntentMatch = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && paymentIntentMatch) {
      const intent = this.paymentIntents.get(paymentIntentMatch[1]);
      return intent
        ? { status: 200, body: intent }
        : refusal(404, `No such payment_intent: '${paymentIntentMatch[1]}'`, { code: 'resource_missing' });
    }
    return null;
  }

  /** An off-session payment intent, created and confirmed at once, as the test card makes it end. */
  private offSessionPayment(form: Record<string, string>): FakeAnswer {
    const amount = Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0) return refusal(400, 'amount must be a positive integer');
    if (form.confirm !== 'true' || form.off_session !== 'true')
      return refusal(400, 'The fake only makes off-session payments confirmed at once');
    const paymentMethod = this.paymentMethods.get(form.payment_method ?? '');
    if (!paymentMethod) return refusal(400, 'No such PaymentMethod');
    if (!form.customer || paymentMethod.customer !== form.customer)
      return refusal(400, 'The provided PaymentMethod does not belong to this Customer', { code: 'resource_missing' });
    const behaviour = FAKE_TEST_CARDS[paymentMethod.testCard].offSession;
    const intent: FakePaymentIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      currency: (form.currency ?? 'usd').toLowerCase(),
      customer: form.customer,
      payment_method: paymentMethod.id,
      status:
        behaviour === 'succeeds' ? 'succeeded' : behaviour === 'processing' ? 'processing' : 'requires_payment_method',
      last_payment_error:
        behaviour === 'card_declined'
          ? { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' }
          : behaviour === 'authentication_required'
            ? { code: 'authentication_required', decline_code: null, message: 'This payment requires authentication.' }
            : null,
      description: form.description ?? null,
      metadata: metadataOf(form, 'metadata'),
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    this.paymentIntents.set(intent.id, intent);
    if (behaviour === 'succeeds' || behaviour === 'processing') return { status: 200, body: intent };
    const declined = behaviour === 'card_declined';
    return {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: behaviour,
          decline_code: declined ? 'generic_decline' : 'authentication_required',
          message: declined ? 'Your card was declined.' : 'This payment requires authentication.',
          payment_intent: intent,
        },
      },
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const path = (request.url ?? '').split('?')[0];
    const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method: request.method ?? '', path, form, idempotencyKey });
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      response.end(JSON.stringify(body));
    };
    if (this.failing) return answer(500, { error: { type: 'api_error', message: 'The fake is failing' } });
    if (request.headers.authorization !== `Bearer ${FAKE_STRIPE_SECRET_KEY}`)
      return answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const savedCardAnswer = this.handleSavedCards(request.method ?? '', path, form, idempotencyKey);
    if (savedCardAnswer) return answer(savedCardAnswer.status, savedCardAnswer.body);
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      const known = idempotencyKey === null ? undefined : this.byIdempotencyKey.get(idempotencyKey);
      if (known) return answer(200, known);
      const session = this.create(form);
      if (typeof session === 'string')
        return answer(400, { error: { type: 'invalid_request_error', message: session } });
      if (idempotencyKey !== null) this.byIdempotencyKey.set(idempotencyKey, session);
      return answer(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/.exec(path);
    if (request.method === 'GET' && match) {
      const session = this.sessions.get(match[1]);
      if (!session)
        return answer(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      return answer(200, session);
    }
    const expiring = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)\/expire$/.exec(path);
    if (request.method === 'POST' && expiring) {
      const session = this.sessions.get(expiring[1]);
      if (!session)
        return answer(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      if (session.status !== 'open')
        return answer(400, {
          error: {
            type: 'invalid_request_error',
            message: 'Only Checkout Sessions with a status in ["open"] can be expired.',
          },
        });
      session.status = 'expired';
      return answer(200, session);
    }
    return answer(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
  }

  /** A session from the create call's form (read as the sandbox card reads it), or why Stripe would refuse it. */
  private create(form: Record<string, string>): FakeCheckoutSession | string {
    const request = checkoutSessionRequestOf(form);
    if (typeof request === 'string') return request;
    const { productName: _productName, ...asked } = request;
    const sessionId = id('cs');
    const session: FakeCheckoutSession = {
      ...asked,
      id: sessionId,
      object: 'checkout.session',
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    this.sessions.set(sessionId, session);
    return session;
  }
}
