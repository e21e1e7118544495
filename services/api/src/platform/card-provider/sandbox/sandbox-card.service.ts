import { Injectable, Logger } from '@nestjs/common';
import { SANDBOX_CHECKOUT_SIGNATURE_PARAM } from '@kupa/proto';
import { randomBytes } from 'node:crypto';
import { sameText } from '../../crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../clock';
import { ApiError } from '../../http';
import { CARD_WEBHOOK_SIGNATURE_HEADER } from '../card-provider.port';
import { CardProviderSettings, SANDBOX_CHECKOUT_PAGE_PATH } from '../card-provider-settings';
import { stripeSdk } from '../stripe-card-provider';
import {
  type CheckoutSessionRequest,
  type CheckoutSessionWire,
  checkoutSessionEvent,
  checkoutSessionRequestOf,
  expiredCheckoutSession,
  paidCheckoutSession,
} from './checkout-session';

/** A session's row, as `sandbox_card_sessions` keeps it. */
export interface SandboxCardSessionRow {
  session_id: string;
  status: CheckoutSessionWire['status'];
  payment_status: CheckoutSessionWire['payment_status'];
  amount_total_minor: string;
  currency: string;
  product_name: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  created_at: Date;
}

/** What paying answers a script: the session as it now stands and what our webhook route said of it. */
export interface SandboxCardPayment {
  checkoutSessionId: string;
  status: CheckoutSessionWire['status'];
  paymentStatus: CheckoutSessionWire['payment_status'];
  /** The HTTP status our webhook route answered the event with; 0 when it could not be reached. */
  webhookStatus: number;
  /** Where the page sends the payer next: the session's success address. */
  successUrl: string;
}

/** A Stripe-like id, marked as a test object as Stripe's test mode marks them. */
export function sandboxId(prefix: string): string {
  return `${prefix}_test_sandbox_${randomBytes(12).toString('hex')}`;
}

/**
 * The sandbox card (docs/adr/0080-sandbox-card-checkout.md): a stand-in for Stripe Checkout inside our own server,
 * on only with the sandboxes and without `STRIPE_SECRET_KEY`, so that card purchases run end to end through the real
 * adapter (the `stripe` SDK) with no outside service. It keeps its sessions in its own table, serves a test checkout
 * page, and delivers signed webhook events to our webhook route over real HTTP, as Stripe does.
 */
@Injectable()
export class SandboxCard {
  private readonly logger = new Logger('SandboxCard');

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: CardProviderSettings,
    private readonly clock: Clock,
  ) {}

  /** Refuses every sandbox card route where the sandbox card is off: a real Stripe, or no sandboxes. */
  assertOn(): void {
    if (!this.settings.sandbox) throw new ApiError('error.card.sandbox.off');
  }

  /** Stripe's bearer check: the SDK sends `Authorization: Bearer <secret key>`. */
  assertSecretKey(authorization: unknown): void {
    this.assertOn();
    if (!sameText(authorization, `Bearer ${this.settings.secretKey}`))
      throw new ApiError('error.card.sandbox.api.key.invalid');
  }

  /** A checkout's page and buttons answer only its link; a guessed id is the same 404 as an unknown one. */
  assertLink(checkoutSessionId: string, signature: unknown): void {
    if (!sameText(signature, this.settings.checkoutLinkSignature(checkoutSessionId)))
      throw new ApiError('error.card.sandbox.checkout.not.found');
  }

  /**
   * `POST /v1/checkout/sessions`: a new open session, or, for an idempotency key seen before, the session it made
   * (a retried create is the same checkout, as on Stripe). A form Stripe would refuse is `error.validation.invalid.input`.
   */
  async create(form: Record<string, string>, idempotencyKey: string | null): Promise<CheckoutSessionWire> {
    const request = checkoutSessionRequestOf(form);
    if (typeof request === 'string') throw new ApiError('error.validation.invalid.input');
    if (idempotencyKey !== null) {
      const known = await this.byIdempotencyKey(idempotencyKey);
      if (known) return this.wire(known);
    }
    const sessionId = sandboxId('cs');
    const inserted = await this.insert(sessionId, request, idempotencyKey);
    // Two creates with one key at once: the second finds the first's session.
    const row = inserted ?? (await this.byIdempotencyKey(idempotencyKey as string));
    if (!row) throw new ApiError('error.entity.modified.concurrently');
    return this.wire(row);
  }

  async session(checkoutSessionId: string): Promise<SandboxCardSessionRow> {
    const rows: SandboxCardSessionRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM sandbox_card_sessions WHERE session_id = $1`,
      [checkoutSessionId],
    );
    if (!rows[0]) throw new ApiError('error.card.sandbox.checkout.not.found');
    return rows[0];
  }

  async retrieve(checkoutSessionId: string): Promise<CheckoutSessionWire> {
    return this.wire(await this.session(checkoutSessionId));
  }

  /** `POST /v1/checkout/sessions/{id}/expire` (the card janitor closes stale checkouts with it). */
  async expire(checkoutSessionId: string): Promise<CheckoutSessionWire> {
    return this.change(checkoutSessionId, (session) => {
      const expired = expiredCheckoutSession(session);
      if (typeof expired === 'string') throw new ApiError('error.card.sandbox.checkout.closed');
      return expired;
    }).then((row) => this.wire(row));
  }

  /**
   * What the page's Pay button does: the session becomes complete and paid, then our webhook route gets
   * `checkout.session.completed`, signed with the sandbox's webhook secret over the exact bytes sent, as Stripe sends
   * it. A second press (a double click, another tab) is `error.card.sandbox.checkout.closed` and sends nothing.
   */
  async pay(checkoutSessionId: string): Promise<SandboxCardPayment> {
    const row = await this.change(checkoutSessionId, (session) => {
      if (session.status !== 'open') throw new ApiError('error.card.sandbox.checkout.closed');
      return paidCheckoutSession(session, sandboxId('pi'));
    });
    const session = this.wire(row);
    const webhookStatus = await this.deliver('checkout.session.completed', session);
    return {
      checkoutSessionId,
      status: session.status,
      paymentStatus: session.payment_status,
      webhookStatus,
      successUrl: session.success_url,
    };
  }

  /** The session's page address: at our public address, with the key that lets its holder play the payer. */
  checkoutLink(checkoutSessionId: string): string {
    const query = new URLSearchParams({
      [SANDBOX_CHECKOUT_SIGNATURE_PARAM]: this.settings.checkoutLinkSignature(checkoutSessionId),
    });
    return `${this.settings.publicUrl()}${SANDBOX_CHECKOUT_PAGE_PATH}/${checkoutSessionId}?${query}`;
  }

  wire(row: SandboxCardSessionRow): CheckoutSessionWire {
    return {
      id: row.session_id,
      object: 'checkout.session',
      mode: 'payment',
      url: this.checkoutLink(row.session_id),
      status: row.status,
      payment_status: row.payment_status,
      amount_total: Number(row.amount_total_minor),
      currency: row.currency,
      client_reference_id: row.client_reference_id,
      customer_email: row.customer_email,
      metadata: row.metadata,
      payment_intent: row.payment_intent,
      success_url: row.success_url,
      cancel_url: row.cancel_url,
      created: Math.floor(row.created_at.getTime() / 1000),
      livemode: false,
    };
  }

  private async insert(
    sessionId: string,
    request: CheckoutSessionRequest,
    idempotencyKey: string | null,
  ): Promise<SandboxCardSessionRow | null> {
    const now = this.clock.now();
    const rows: SandboxCardSessionRow[] = await this.dataSource.query(
      `INSERT INTO sandbox_card_sessions (session_id, idempotency_key, status, payment_status, amount_total_minor,
         currency, product_name, client_reference_id, customer_email, metadata, payment_intent, success_url,
         cancel_url, created_at, updated_at)
       VALUES ($1, $2, 'open', 'unpaid', $3, $4, $5, $6, $7, $8, NULL, $9, $10, $11, $11)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        sessionId,
        idempotencyKey,
        request.amount_total,
        request.currency,
        request.productName,
        request.client_reference_id,
        request.customer_email,
        JSON.stringify(request.metadata),
        request.success_url,
        request.cancel_url,
        now,
      ],
    );
    return rows[0] ?? null;
  }

  private async byIdempotencyKey(idempotencyKey: string): Promise<SandboxCardSessionRow | null> {
    const rows: SandboxCardSessionRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM sandbox_card_sessions WHERE idempotency_key = $1`,
      [idempotencyKey],
    );
    return rows[0] ?? null;
  }

  /**
   * One change of a session under a lock on its row, so that two presses at once take turns and the second sees
   * the first's outcome. Events go out after the commit: our webhook route reads the session back over HTTP.
   */
  private change(
    checkoutSessionId: string,
    decide: (session: CheckoutSessionWire) => CheckoutSessionWire,
  ): Promise<SandboxCardSessionRow> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const rows: SandboxCardSessionRow[] = await manager.query(
        `SELECT ${COLUMNS} FROM sandbox_card_sessions WHERE session_id = $1 FOR UPDATE`,
        [checkoutSessionId],
      );
      if (!rows[0]) throw new ApiError('error.card.sandbox.checkout.not.found');
      const next = decide(this.wire(rows[0]));
      // The driver answers an UPDATE with its rows and the count changed.
      const [updated]: [SandboxCardSessionRow[], number] = await manager.query(
        `UPDATE sandbox_card_sessions SET status = $2, payment_status = $3, payment_intent = $4, updated_at = $5
          WHERE session_id = $1 RETURNING ${COLUMNS}`,
        [checkoutSessionId, next.status, next.payment_status, next.payment_intent, this.clock.now()],
      );
      return updated[0];
    });
  }

  /**
   * Posts the event, signed, to our webhook route on this process's own origin. Answers the status the route gave,
   * 0 when it could not be reached (logged; the card janitor reads the session back later, as with Stripe). The
   * signature's timestamp is the real time, not the demo's moved clock: the SDK checks it against the real time.
   */
  private async deliver(type: string, session: CheckoutSessionWire): Promise<number> {
    const payload = checkoutSessionEvent(
      sandboxId('evt'),
      type,
      session,
      Math.floor(this.clock.now().getTime() / 1000),
    );
    return this.deliverEvent(payload, session.id);
  }

  /** Posts an event's exact bytes to our webhook route, signed as Stripe signs them; `about` names it in the log. */
  async deliverEvent(payload: string, about: string): Promise<number> {
    // The SDK's own signing, as Stripe signs events; loaded at the first event sent.
    const signature = stripeSdk().webhooks.generateTestHeaderString({ payload, secret: this.settings.webhookSecret });
    try {
      const response = await fetch(this.settings.webhookTarget(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CARD_WEBHOOK_SIGNATURE_HEADER]: signature },
        body: payload,
        signal: AbortSignal.timeout(15_000),
        redirect: 'error',
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      this.logger.warn(`The webhook of sandbox checkout ${about} was not delivered: ${String(error)}`);
      return 0;
    }
  }
}

const COLUMNS = `session_id, status, payment_status, amount_total_minor::text, currency, product_name,
  client_reference_id, customer_email, metadata, payment_intent, success_url, cancel_url, created_at`;
