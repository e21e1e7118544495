import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import type { CardProvider as CardProviderName } from '@kupa/proto';
import { ApiError } from '../http';
import { CardProviderSettings } from './card-provider-settings';
import {
  type CardCheckout,
  type CardCheckoutRequest,
  type CardCheckoutState,
  type CardCustomerRequest,
  CardProvider,
  type CardSetupRequest,
  type CardSetupState,
  type CardWebhookEvent,
  type OffSessionChargeOutcome,
  type OffSessionChargeRequest,
  type OffSessionPaymentState,
  PAYMENT_INTENT_WEBHOOK_EVENT_TYPES,
  type SavedPaymentMethod,
} from './card-provider.port';

/**
 * Stripe's SDK, loaded at its first use rather than at start: its ~220 modules were one in seventeen of what every start
 * (and every API spec's boot) loaded, for a provider most runs never call (docs/benchmarks.md, "CI time").
 * Synchronous, as the webhook checks are.
 */
export function stripeSdk(): typeof Stripe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('stripe') as typeof Stripe;
}

/** A provider that does not answer within this long is treated as unavailable. */
export const CARD_PROVIDER_CALL_TIMEOUT_MS = 15_000;

/**
 * The SDK's connection options for `STRIPE_API_BASE` (a local fake in tests, the sandbox card on our own origin);
 * Stripe's own API when unset. The SDK knows only a host, a port and a protocol and always calls `/v1/…`, so a base
 * with a path (the sandbox card's `/api/sandbox/card`) gets an HTTP client that puts the path in front.
 */
export function stripeConnectionOf(
  apiBase: string | null,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol' | 'httpClient'> {
  if (apiBase === null) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const connection = {
    host: url.hostname,
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
  } as const;
  const pathPrefix = url.pathname.replace(/\/+$/, '');
  return pathPrefix === '' ? connection : { ...connection, httpClient: pathPrefixedHttpClient(pathPrefix) };
}

/** The SDK's own Node HTTP client, with a path in front of every call's. */
function pathPrefixedHttpClient(pathPrefix: string): Stripe.HttpClient {
  const sdk = stripeSdk();
  const inner = sdk.createNodeHttpClient();
  return new (class PathPrefixedHttpClient extends sdk.HttpClient {
    override getClientName(): string {
      return inner.getClientName();
    }

    override makeRequest(...[host, port, path, ...rest]: Parameters<Stripe.HttpClient['makeRequest']>) {
      return inner.makeRequest(host, port, `${pathPrefix}${path}`, ...rest);
    }
  })();
}

/**
 * The card provider through Stripe's own SDK: Checkout Sessions for the hosted page, `webhooks.constructEvent` for
 * the signature over the raw body. `STRIPE_API_BASE` points the SDK elsewhere (the tests' fake Stripe server); the
 * sandbox card (docs/adr/0080-sandbox-card-checkout.md) points it at this server's own loopback origin, which is
 * known only once the server listens, so the SDK is made at the first call rather than at construction.
 */
@Injectable()
export class StripeCardProvider extends CardProvider {
  private readonly logger = new Logger('StripeCardProvider');
  private client: { apiBase: string | null; stripe: Stripe } | null = null;

  constructor(private readonly settings: CardProviderSettings) {
    super();
  }

  get available(): boolean {
    return this.settings.available;
  }

  get name(): CardProviderName {
    return this.settings.provider;
  }

  async createCheckout(request: CardCheckoutRequest): Promise<CardCheckout> {
    const stripe = this.configured();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: String(request.paymentId),
          customer_email: request.customerEmail,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: request.amountMinor,
                product_data: { name: request.productName },
              },
            },
          ],
          metadata: { paymentId: String(request.paymentId) },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `kupa-checkout-${request.paymentId}` },
      );
    } catch (error) {
      this.logger.warn(`Creating the checkout of payment ${request.paymentId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    if (typeof session?.id !== 'string' || typeof session.url !== 'string' || !/^https?:\/\//.test(session.url)) {
      this.logger.warn(`The card provider answered a checkout without an id or an address for ${request.paymentId}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    return { checkoutSessionId: session.id, url: session.url };
  }

  async retrieveCheckout(checkoutSessionId: string): Promise<CardCheckoutState> {
    const stripe = this.configured();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(checkoutSessionId);
    } catch (error) {
      this.logger.warn(`Reading checkout ${checkoutSessionId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    return stateOf(session);
  }

  async expireCheckout(checkoutSessionId: string): Promise<CardCheckoutState> {
    const stripe = this.configured();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.expire(checkoutSessionId);
    } catch (error) {
      this.logger.warn(`Expiring checkout ${checkoutSessionId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    return stateOf(session);
  }

  verifyWebhook(rawBody: Buffer | undefined, signature: string | undefined): CardWebhookEvent {
    const stripe = this.configured();
    const secret = this.settings.webhookSecret;
    if (!Buffer.isBuffer(rawBody) || typeof signature !== 'string' || signature === '')
      throw new ApiError('error.card.webhook.signature.invalid');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new ApiError('error.card.webhook.signature.invalid');
    }
    const object = (event.data?.object ?? null) as { id?: unknown; object?: unknown } | null;
    const checkoutSessionId =
      object !== null && object.object === 'checkout.session' && typeof object.id === 'string' ? object.id : null;
    return { id: event.id, type: event.type, checkoutSessionId };
  }

  // Saved cards (docs/adr/0085-saved-cards.md).

  async createCustomer(request: CardCustomerRequest): Promise<string> {
    const stripe = this.configured();
    let customer: Stripe.Customer;
    try {
      customer = await stripe.customers.create(
        { email: request.email, metadata: { userUuid: request.userUuid } },
        { idempotencyKey: `kupa-customer-${request.userUuid}` },
      );
    } catch (error) {
      this.logger.warn(`Creating the customer of ${request.userUuid} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    if (typeof customer?.id !== 'string') throw new ApiError('error.card.provider.unavailable');
    return customer.id;
  }

  async createSetupCheckout(request: CardSetupRequest): Promise<CardCheckout> {
    const stripe = this.configured();
    const metadata = { userUuid: request.userUuid, setupId: request.setupId };
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer: request.customerId,
          currency: 'usd',
          allowed_payment_method_types: ['card'],
          client_reference_id: request.userUuid,
          metadata,
          setup_intent_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `kupa-card-setup-${request.setupId}` },
      );
    } catch (error) {
      this.logger.warn(`Creating the card setup ${request.setupId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    if (typeof session?.id !== 'string' || typeof session.url !== 'string' || !/^https?:\/\//.test(session.url))
      throw new ApiError('error.card.provider.unavailable');
    return { checkoutSessionId: session.id, url: session.url };
  }

  async retrieveSetupCheckout(checkoutSessionId: string): Promise<CardSetupState | null> {
    const stripe = this.configured();
    try {
      const session = await stripe.checkout.sessions.retrieve(checkoutSessionId);
      if (session.mode !== 'setup') return null;
      const intentId = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent?.id;
      let paymentMethod: SavedPaymentMethod | null = null;
      if (intentId) {
        const intent = await stripe.setupIntents.retrieve(intentId);
        const methodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
        if (intent.status === 'succeeded' && methodId)
          paymentMethod = savedPaymentMethodOf(await stripe.paymentMethods.retrieve(methodId));
      }
      const customer = session.customer;
      return {
        checkoutSessionId: session.id,
        userUuid: session.client_reference_id ?? session.metadata?.userUuid ?? null,
        setupId: session.metadata?.setupId ?? null,
        customerId: typeof customer === 'string' ? customer : (customer?.id ?? null),
        status: String(session.status ?? ''),
        createdSeconds: session.created,
        paymentMethod,
      };
    } catch (error) {
      this.logger.warn(`Reading the card setup ${checkoutSessionId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
  }

  verifySetupWebhook(rawBody: Buffer | undefined, signature: string | undefined): CardWebhookEvent | null {
    const event = this.verifyWebhook(rawBody, signature);
    if (event.type !== 'checkout.session.completed' || event.checkoutSessionId === null) return null;
    // The signature held over these very bytes, so reading them again reads what the provider sent.
    const body = JSON.parse((rawBody as Buffer).toString('utf8')) as { data?: { object?: { mode?: unknown } } };
    return body.data?.object?.mode === 'setup' ? event : null;
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    const stripe = this.configured();
    try {
      await stripe.paymentMethods.detach(paymentMethodId);
    } catch (error) {
      // Stripe refuses to detach a card that is attached to nobody: that card is as removed as we want it.
      if (
        error instanceof stripeSdk().errors.StripeInvalidRequestError &&
        (await this.isDetached(stripe, paymentMethodId))
      )
        return;
      this.logger.warn(`Detaching ${paymentMethodId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
  }

  async chargeOffSession(request: OffSessionChargeRequest): Promise<OffSessionChargeOutcome> {
    const stripe = this.configured();
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: request.amountMinor,
          currency: 'usd',
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: { ...request.metadata },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      // A card that says no is an answer, not an outage: Stripe answers 402 with the payment it made and why.
      if (error instanceof stripeSdk().errors.StripeCardError) {
        const paymentIntentId = error.payment_intent?.id ?? null;
        const code = error.code ?? 'card_declined';
        if (code === 'authentication_required') return { outcome: 'requires_action', paymentIntentId, code };
        return { outcome: 'declined', paymentIntentId, code, declineCode: error.decline_code ?? null };
      }
      // A request Stripe refuses as such (400, e.g. the card was replaced and detached since the attempt began) made
      // no payment and never will under this key, which replays the refusal: an answer too, or the attempt would
      // stay open until it is abandoned. An idempotency error is another class and stays an outage.
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.statusCode === 400) {
        this.logger.warn(`Stripe refused to charge ${request.paymentMethodId} off-session: ${error.message}`);
        return {
          outcome: 'declined',
          paymentIntentId: error.payment_intent?.id ?? null,
          code: error.code ?? 'invalid_request',
          declineCode: null,
        };
      }
      this.logger.warn(`Charging ${request.paymentMethodId} off-session failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    return outcomeOf(intent);
  }

  async retrievePaymentIntent(paymentIntentId: string): Promise<OffSessionPaymentState | null> {
    const stripe = this.configured();
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.retrieve(paymentIntentId);
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      this.logger.warn(`Reading the payment ${paymentIntentId} failed: ${String(error)}`);
      throw new ApiError('error.card.provider.unavailable');
    }
    return { paymentIntentId: intent.id, outcome: outcomeOf(intent), metadata: { ...(intent.metadata ?? {}) } };
  }

  verifyPaymentIntentWebhook(
    rawBody: Buffer | undefined,
    signature: string | undefined,
  ): { id: string; type: string; paymentIntentId: string } | null {
    const event = this.verifyWebhook(rawBody, signature);
    if (!(PAYMENT_INTENT_WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
    // The signature held over these very bytes, so reading them again reads what the provider sent.
    const body = JSON.parse((rawBody as Buffer).toString('utf8')) as {
      data?: { object?: { id?: unknown; object?: unknown } };
    };
    const object = body.data?.object;
    if (object?.object !== 'payment_intent' || typeof object.id !== 'string') return null;
    return { id: event.id, type: event.type, paymentIntentId: object.id };
  }

  private async isDetached(stripe: Stripe, paymentMethodId: string): Promise<boolean> {
    try {
      return (await stripe.paymentMethods.retrieve(paymentMethodId)).customer === null;
    } catch {
      return false;
    }
  }

  private configured(): Stripe {
    if (!this.settings.available) throw new ApiError('error.card.provider.unavailable');
    const apiBase = this.settings.apiBase();
    if (this.client?.apiBase !== apiBase)
      this.client = {
        apiBase,
        stripe: new (stripeSdk())(this.settings.secretKey, {
          ...stripeConnectionOf(apiBase),
          maxNetworkRetries: 1,
          timeout: CARD_PROVIDER_CALL_TIMEOUT_MS,
          appInfo: { name: 'kupa' },
        }),
      };
    return this.client.stripe;
  }
}

/** Where an off-session PaymentIntent stands, in the terms of `chargeOffSession`'s answer. */
function outcomeOf(intent: Stripe.PaymentIntent): OffSessionChargeOutcome {
  switch (intent.status) {
    case 'succeeded':
      return {
        outcome: 'succeeded',
        paymentIntentId: intent.id,
        amountMinor: intent.amount,
        currency: intent.currency,
      };
    case 'requires_action':
    case 'requires_confirmation':
      return { outcome: 'requires_action', paymentIntentId: intent.id, code: 'authentication_required' };
    case 'processing':
      return { outcome: 'pending', paymentIntentId: intent.id };
    default:
      if (intent.last_payment_error?.code === 'authentication_required')
        return { outcome: 'requires_action', paymentIntentId: intent.id, code: 'authentication_required' };
      return {
        outcome: 'declined',
        paymentIntentId: intent.id,
        code: intent.last_payment_error?.code ?? 'card_declined',
        declineCode: intent.last_payment_error?.decline_code ?? null,
      };
  }
}

/** A checkout as Stripe's API answers it, in our port's terms. */
function stateOf(session: Stripe.Checkout.Session): CardCheckoutState {
  const reference = Number(session.client_reference_id ?? session.metadata?.paymentId);
  const intent = session.payment_intent;
  return {
    checkoutSessionId: session.id,
    paymentId: Number.isSafeInteger(reference) && reference > 0 ? reference : null,
    status: String(session.status ?? ''),
    paymentStatus: String(session.payment_status ?? ''),
    amountTotalMinor: typeof session.amount_total === 'number' ? session.amount_total : null,
    currency: session.currency ?? null,
    providerPaymentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
  };
}

/** A saved card as Stripe's API answers it: only what a person needs to recognise the card. */
function savedPaymentMethodOf(method: Stripe.PaymentMethod): SavedPaymentMethod | null {
  if (!method.card) return null;
  const customer = method.customer;
  return {
    paymentMethodId: method.id,
    customerId: typeof customer === 'string' ? customer : (customer?.id ?? null),
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}
