import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { type CheckoutSessionWire, checkoutSessionEvent, checkoutSessionRequestOf } from '../platform/card-provider';

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
    const eventId = options.eventId ?? id('evt');
    const payload = checkoutSessionEvent(eventId, type, this.session(sessionId), Math.floor(Date.now() / 1000));
    const signature = this.sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? FAKE_STRIPE_WEBHOOK_SECRET,
    });
    return { eventId, payload, signature };
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
