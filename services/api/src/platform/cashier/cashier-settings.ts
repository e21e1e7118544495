import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { API_BASE_PATH, API_ROUTES, type CashierProvider } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../config';
import { derivedSecret, linkSignature } from '../crypto';
import { ownLoopbackOrigin } from '../http/own-origin';

/** Where the sandbox cashier serves its NOWPayments-compatible API, under our own origin. */
export const SANDBOX_CASHIER_PATH = `${API_BASE_PATH}/sandbox/cashier`;

/**
 * Which cashier the server talks to and how (docs/adr/0028-crypto-cashier.md): the provider at `CASHIER_URL` with
 * `CASHIER_API_KEY` and `CASHIER_IPN_SECRET`, or, when `CASHIER_URL` is unset and the sandboxes may run
 * (`KUPA_SANDBOX`, docs/adr/0055-sandboxes-only-on-demand.md), the sandbox our own server serves, reached over real
 * HTTP on the loopback address the server listens on. Neither: there is no cashier, and crypto deposits are
 * unavailable.
 */
@Injectable()
export class CashierSettings {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly http: HttpAdapterHost,
  ) {}

  /** The sandbox stands in for the provider: only where the sandboxes may run and no real cashier is configured. */
  get sandbox(): boolean {
    return this.config.cashierUrl === null && this.config.sandbox;
  }

  /** Whether there is a cashier at all; without one, crypto deposits answer `error.cashier.unavailable`. */
  get available(): boolean {
    return this.config.cashierUrl !== null || this.sandbox;
  }

  get provider(): CashierProvider {
    return this.sandbox ? 'SANDBOX' : 'NOWPAYMENTS';
  }

  /** The API base the adapter calls: `…/v1/invoice` and `…/v1/payment/{id}` hang below it. */
  apiBase(): string {
    return this.config.cashierUrl?.replace(/\/+$/, '') ?? `${this.ownOrigin()}${SANDBOX_CASHIER_PATH}`;
  }

  /**
   * The sandbox's key and secret derive from the JWT secret when none is configured, so a fresh install works
   * without setup and they stay the same across restarts (and across replicas sharing the JWT secret).
   */
  get apiKey(): string {
    return this.config.cashierApiKey ?? this.derived('sandbox-cashier-api-key');
  }

  get ipnSecret(): string {
    return this.config.cashierIpnSecret ?? this.derived('sandbox-cashier-ipn-secret');
  }

  /** What we tell the provider to notify: our IPN route at the public address. */
  ipnCallbackUrl(): string {
    return `${this.config.publicUrl}${API_BASE_PATH}${API_ROUTES.cashierIpn}`;
  }

  /** Where the invoice page sends the client back to: the deposit screen, naming the payment. */
  returnUrl(paymentId: number): string {
    return `${this.config.publicUrl}/payments/deposit?paymentId=${paymentId}`;
  }

  publicUrl(): string {
    return this.config.publicUrl;
  }

  /**
   * This server's own origin on the loopback interface: the sandbox is part of this very process, so the adapter's
   * calls and the sandbox's IPNs go there whatever the public address is (a proxy, a name tests cannot resolve).
   */
  ownOrigin(): string {
    return ownLoopbackOrigin(this.http, 'sandbox cashier');
  }

  /**
   * The key a sandbox invoice's link carries: whoever holds the link may play the payer, as with a real invoice, and
   * nobody can pay an invoice by guessing its id.
   */
  invoiceLinkSignature(invoiceId: string): string {
    return linkSignature(this.config.jwtSecret, 'sandbox-cashier-invoice-link', invoiceId);
  }

  private derived(purpose: string): string {
    return derivedSecret(this.config.jwtSecret, purpose);
  }
}
