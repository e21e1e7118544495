import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { API_BASE_PATH, API_ROUTES, type CardProvider } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../config';
import { derivedSecret, linkSignature } from '../crypto';
import { ownLoopbackOrigin } from '../http/own-origin';

/** Where the sandbox card serves its Stripe-compatible API and its checkout pages, under our own origin. */
export const SANDBOX_CARD_PATH = `${API_BASE_PATH}/sandbox/card`;
/** A sandbox checkout's page: a session's `url` is this, a slash, the session id and the link's key. */
export const SANDBOX_CHECKOUT_PAGE_PATH = `${SANDBOX_CARD_PATH}/checkouts`;
/** A sandbox setup checkout's page, where a test card is saved (docs/adr/0087-sandbox-saved-cards.md). */
export const SANDBOX_SETUP_PAGE_PATH = `${SANDBOX_CARD_PATH}/setups`;

/**
 * Which card provider the server talks to and how (docs/adr/0029-card-checkout.md,
 * docs/adr/0080-sandbox-card-checkout.md): Stripe with `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` (at
 * `STRIPE_API_BASE` when set), or, when `STRIPE_SECRET_KEY` is unset and the sandboxes may run (`KUPA_SANDBOX`), the
 * sandbox card our own server serves, reached by the same SDK over real HTTP on the loopback address the server
 * listens on. Neither: there is no card provider, and card checkout is unavailable.
 */
@Injectable()
export class CardProviderSettings {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly http: HttpAdapterHost,
  ) {}

  /** The sandbox stands in for Stripe: only where the sandboxes may run and no Stripe key is configured. */
  get sandbox(): boolean {
    return this.config.stripeSecretKey === null && this.config.sandbox;
  }

  /** The provider payments record: the same fact that picks the sandbox's keys, so the two can never disagree. */
  get provider(): CardProvider {
    return this.sandbox ? 'SANDBOX' : 'STRIPE';
  }

  /** Whether card checkout can be offered at all. */
  get available(): boolean {
    return this.sandbox || (this.config.stripeSecretKey !== null && this.config.stripeWebhookSecret !== null);
  }

  /**
   * The sandbox's secret key and webhook secret derive from the JWT secret, so they hold across restarts and across
   * replicas sharing it, as the sandbox cashier's do. They look like Stripe's test keys, never like live ones.
   */
  get secretKey(): string {
    return this.sandbox
      ? `sk_test_sandbox_${this.derived('sandbox-card-secret-key')}`
      : (this.config.stripeSecretKey ?? '');
  }

  get webhookSecret(): string {
    return this.sandbox
      ? `whsec_sandbox_${this.derived('sandbox-card-webhook-secret')}`
      : (this.config.stripeWebhookSecret ?? '');
  }

  /** Where the SDK sends its calls: Stripe's own API (null), `STRIPE_API_BASE`, or the sandbox on our own origin. */
  apiBase(): string | null {
    return this.sandbox ? `${this.ownOrigin()}${SANDBOX_CARD_PATH}` : this.config.stripeApiBase;
  }

  /** Our webhook route on this very process: where the sandbox delivers its events, as Stripe would to the public one. */
  webhookTarget(): string {
    return `${this.ownOrigin()}${API_BASE_PATH}${API_ROUTES.cardWebhook}`;
  }

  publicUrl(): string {
    return this.config.publicUrl;
  }

  /** The key a sandbox checkout's link carries: whoever holds the link may pay, nobody may by guessing the id. */
  checkoutLinkSignature(checkoutSessionId: string): string {
    return linkSignature(this.config.jwtSecret, 'sandbox-card-checkout-link', checkoutSessionId);
  }

  /**
   * This server's own origin on the loopback interface: the sandbox is part of this process, so the SDK's calls and
   * the sandbox's webhooks go there whatever the public address is.
   */
  private ownOrigin(): string {
    return ownLoopbackOrigin(this.http, 'sandbox card');
  }

  private derived(purpose: string): string {
    return derivedSecret(this.config.jwtSecret, purpose);
  }
}
