import { Injectable } from '@nestjs/common';
import { SANDBOX_CHECKOUT_SIGNATURE_PARAM } from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../clock';
import { ApiError } from '../../http';
import { CardProviderSettings, SANDBOX_SETUP_PAGE_PATH } from '../card-provider-settings';
import { SandboxCard, sandboxId } from './sandbox-card.service';
import {
  IDEMPOTENCY_KEY_REUSED,
  idempotentRequestOf,
  offSessionPayment,
  offSessionPaymentRequestOf,
  type PaymentMethodWire,
  paymentMethodWire,
  type SandboxTestCard,
  type SetupIntentWire,
  type SetupSessionWire,
  setupSessionEvent,
  setupSessionRequestOf,
  type StripeWireAnswer,
  stripeRefusal,
} from './saved-card-wire';

/** A setup session's row, as `sandbox_card_setup_sessions` keeps it. */
export interface SandboxSetupSessionRow {
  session_id: string;
  customer_id: string;
  status: SetupSessionWire['status'];
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  setup_intent: string | null;
  payment_method: string | null;
  success_url: string;
  cancel_url: string;
  created_at: Date;
}

interface PaymentMethodRow {
  payment_method_id: string;
  customer_id: string | null;
  test_card: SandboxTestCard;
}

/** What saving answers a script: the session as it now stands, the card saved and what our webhook route said. */
export interface SandboxCardSetup {
  checkoutSessionId: string;
  status: SetupSessionWire['status'];
  paymentMethod: { brand: string; last4: string };
  /** The HTTP status our webhook route answered the event with; 0 when it could not be reached. */
  webhookStatus: number;
  successUrl: string;
}

const SETUP_COLUMNS = `session_id, customer_id, status, currency, client_reference_id, metadata, setup_intent,
  payment_method, success_url, cancel_url, created_at`;

/**
 * The sandbox card's saved cards (docs/adr/0087-sandbox-saved-cards.md): the Stripe calls our adapter makes for a
 * client's customer, a setup-mode checkout and the card it saved, detaching that card, and off-session payments of
 * it, with Stripe's idempotency (a key's first answer replayed for the same request, the key refused for another).
 * Answers are in Stripe's wire shape with Stripe's statuses, since the `stripe` SDK reads them; the setup page's
 * Save completes a session and delivers its signed `checkout.session.completed` to our webhook route.
 */
@Injectable()
export class SandboxSavedCards {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: CardProviderSettings,
    private readonly clock: Clock,
    private readonly sandbox: SandboxCard,
  ) {}

  /** `POST /v1/customers`. */
  createCustomer(form: Record<string, string>, idempotencyKey: string | null): Promise<StripeWireAnswer> {
    return this.idempotent('/v1/customers', form, idempotencyKey, async (manager) => {
      const metadata = bracketedMetadata(form);
      const customerId = sandboxId('cus');
      const now = this.clock.now();
      await manager.query(
        `INSERT INTO sandbox_card_customers (customer_id, email, metadata, created_at) VALUES ($1, $2, $3, $4)`,
        [customerId, form.email ?? null, JSON.stringify(metadata), now],
      );
      return {
        status: 200,
        body: {
          id: customerId,
          object: 'customer',
          email: form.email ?? null,
          metadata,
          created: seconds(now),
          livemode: false,
        },
      };
    });
  }

  /** `POST /v1/checkout/sessions` in setup mode: an open session for the customer, whose page offers test cards. */
  createSetupSession(form: Record<string, string>, idempotencyKey: string | null): Promise<StripeWireAnswer> {
    return this.idempotent('/v1/checkout/sessions', form, idempotencyKey, async (manager) => {
      const request = setupSessionRequestOf(form);
      if (typeof request === 'string') return stripeRefusal(400, request);
      const customers: unknown[] = await manager.query(`SELECT 1 FROM sandbox_card_customers WHERE customer_id = $1`, [
        request.customer,
      ]);
      if (customers.length === 0)
        return stripeRefusal(400, `No such customer: '${request.customer}'`, { code: 'resource_missing' });
      const now = this.clock.now();
      const rows: SandboxSetupSessionRow[] = await manager.query(
        `INSERT INTO sandbox_card_setup_sessions (session_id, customer_id, status, currency, client_reference_id,
           metadata, setup_intent, payment_method, success_url, cancel_url, created_at, updated_at)
         VALUES ($1, $2, 'open', $3, $4, $5, NULL, NULL, $6, $7, $8, $8)
         RETURNING ${SETUP_COLUMNS}`,
        [
          sandboxId('cs'),
          request.customer,
          request.currency,
          request.client_reference_id,
          JSON.stringify(request.metadata),
          request.success_url,
          request.cancel_url,
          now,
        ],
      );
      return { status: 200, body: this.setupWire(rows[0]) };
    });
  }

  /** The setup session, or null when the id is no setup session (a payment session, or nothing). */
  async setupSession(checkoutSessionId: string): Promise<SandboxSetupSessionRow | null> {
    const rows: SandboxSetupSessionRow[] = await this.dataSource.query(
      `SELECT ${SETUP_COLUMNS} FROM sandbox_card_setup_sessions WHERE session_id = $1`,
      [checkoutSessionId],
    );
    return rows[0] ?? null;
  }

  /**
   * `GET /v1/checkout/sessions/{id}` of a setup session; `expand` may name `setup_intent` and
   * `setup_intent.payment_method`, as Stripe's expansion does. Null when the id is no setup session.
   */
  async retrieveSetupSession(checkoutSessionId: string, expand: readonly string[]): Promise<SetupSessionWire | null> {
    const row = await this.setupSession(checkoutSessionId);
    if (row === null) return null;
    const session = this.setupWire(row);
    if (row.setup_intent !== null && expand.includes('setup_intent')) {
      const intent = await this.setupIntentWire(row);
      if (
        intent !== null &&
        expand.includes('setup_intent.payment_method') &&
        typeof intent.payment_method === 'string'
      )
        intent.payment_method = (await this.paymentMethod(intent.payment_method)) ?? intent.payment_method;
      session.setup_intent = intent;
    }
    return session;
  }

  /** `GET /v1/setup_intents/{id}`. */
  async retrieveSetupIntent(setupIntentId: string): Promise<StripeWireAnswer> {
    const rows: SandboxSetupSessionRow[] = await this.dataSource.query(
      `SELECT ${SETUP_COLUMNS} FROM sandbox_card_setup_sessions WHERE setup_intent = $1`,
      [setupIntentId],
    );
    const intent = rows[0] ? await this.setupIntentWire(rows[0]) : null;
    return intent === null
      ? stripeRefusal(404, `No such setupintent: '${setupIntentId}'`, { code: 'resource_missing' })
      : { status: 200, body: intent };
  }

  /** `GET /v1/payment_methods/{id}`. */
  async retrievePaymentMethod(paymentMethodId: string): Promise<StripeWireAnswer> {
    const method = await this.paymentMethod(paymentMethodId);
    return method === null
      ? stripeRefusal(404, `No such PaymentMethod: '${paymentMethodId}'`, { code: 'resource_missing' })
      : { status: 200, body: method };
  }

  /** `POST /v1/payment_methods/{id}/detach`: for good; a card attached to nobody is refused, as Stripe refuses it. */
  detachPaymentMethod(paymentMethodId: string, idempotencyKey: string | null): Promise<StripeWireAnswer> {
    const path = `/v1/payment_methods/${paymentMethodId}/detach`;
    return this.idempotent(path, {}, idempotencyKey, async (manager) => {
      const rows: PaymentMethodRow[] = await manager.query(
        `SELECT payment_method_id, customer_id, test_card FROM sandbox_card_payment_methods
          WHERE payment_method_id = $1 FOR UPDATE`,
        [paymentMethodId],
      );
      const row = rows[0];
      if (!row) return stripeRefusal(404, `No such PaymentMethod: '${paymentMethodId}'`, { code: 'resource_missing' });
      if (row.customer_id === null)
        return stripeRefusal(
          400,
          'The payment method you provided is not attached to a customer so detachment is impossible.',
        );
      await manager.query(`UPDATE sandbox_card_payment_methods SET customer_id = NULL WHERE payment_method_id = $1`, [
        paymentMethodId,
      ]);
      return { status: 200, body: paymentMethodWire(paymentMethodId, null, row.test_card) };
    });
  }

  /**
   * `POST /v1/payment_intents`, created and confirmed off-session: the saved card's test card decides how it ends
   * (succeeded, or Stripe's 402 card error for a decline or a bank that wants its holder).
   */
  createPaymentIntent(form: Record<string, string>, idempotencyKey: string | null): Promise<StripeWireAnswer> {
    return this.idempotent('/v1/payment_intents', form, idempotencyKey, async (manager) => {
      const request = offSessionPaymentRequestOf(form);
      if (typeof request === 'string') return stripeRefusal(400, request);
      const rows: PaymentMethodRow[] = await manager.query(
        `SELECT payment_method_id, customer_id, test_card FROM sandbox_card_payment_methods WHERE payment_method_id = $1`,
        [request.payment_method],
      );
      const method = rows[0];
      if (!method)
        return stripeRefusal(400, `No such PaymentMethod: '${request.payment_method}'`, { code: 'resource_missing' });
      if (method.customer_id !== request.customer)
        return stripeRefusal(
          400,
          'The provided PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
          { code: 'payment_method_unexpected_state' },
        );
      const now = this.clock.now();
      const { intent, answer } = offSessionPayment(sandboxId('pi'), request, method.test_card, seconds(now));
      await manager.query(
        `INSERT INTO sandbox_card_payment_intents (payment_intent_id, body, created_at) VALUES ($1, $2, $3)`,
        [intent.id, JSON.stringify(intent), now],
      );
      return answer;
    });
  }

  /** `GET /v1/payment_intents/{id}`. */
  async retrievePaymentIntent(paymentIntentId: string): Promise<StripeWireAnswer> {
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT body FROM sandbox_card_payment_intents WHERE payment_intent_id = $1`,
      [paymentIntentId],
    );
    return rows[0]
      ? { status: 200, body: rows[0].body }
      : stripeRefusal(404, `No such payment_intent: '${paymentIntentId}'`, { code: 'resource_missing' });
  }

  /**
   * What the setup page's Save does: the session completes with a SetupIntent that saved the chosen test card to
   * the session's customer, then our webhook route gets `checkout.session.completed`, signed as Stripe signs it.
   * A second press (another tab, a double click) is `error.card.sandbox.checkout.closed` and sends nothing.
   */
  async save(checkoutSessionId: string, card: SandboxTestCard): Promise<SandboxCardSetup> {
    const row = await this.dataSource.transaction(async (manager: EntityManager) => {
      const rows: SandboxSetupSessionRow[] = await manager.query(
        `SELECT ${SETUP_COLUMNS} FROM sandbox_card_setup_sessions WHERE session_id = $1 FOR UPDATE`,
        [checkoutSessionId],
      );
      const session = rows[0];
      if (!session) throw new ApiError('error.card.sandbox.checkout.not.found');
      if (session.status !== 'open') throw new ApiError('error.card.sandbox.checkout.closed');
      const now = this.clock.now();
      const paymentMethodId = sandboxId('pm');
      await manager.query(
        `INSERT INTO sandbox_card_payment_methods (payment_method_id, customer_id, test_card, created_at)
         VALUES ($1, $2, $3, $4)`,
        [paymentMethodId, session.customer_id, card, now],
      );
      const [updated]: [SandboxSetupSessionRow[], number] = await manager.query(
        `UPDATE sandbox_card_setup_sessions
            SET status = 'complete', setup_intent = $2, payment_method = $3, updated_at = $4
          WHERE session_id = $1 RETURNING ${SETUP_COLUMNS}`,
        [checkoutSessionId, sandboxId('seti'), paymentMethodId, now],
      );
      return updated[0];
    });
    const session = this.setupWire(row);
    const payload = setupSessionEvent(
      sandboxId('evt'),
      'checkout.session.completed',
      session,
      seconds(this.clock.now()),
    );
    const webhookStatus = await this.sandbox.deliverEvent(payload, checkoutSessionId);
    const method = paymentMethodWire(row.payment_method as string, row.customer_id, card);
    return {
      checkoutSessionId,
      status: session.status,
      paymentMethod: { brand: method.card.brand, last4: method.card.last4 },
      webhookStatus,
      successUrl: session.success_url,
    };
  }

  /** The setup session's page address: at our public address, with the key that lets its holder save a card. */
  setupLink(checkoutSessionId: string): string {
    const query = new URLSearchParams({
      [SANDBOX_CHECKOUT_SIGNATURE_PARAM]: this.settings.checkoutLinkSignature(checkoutSessionId),
    });
    return `${this.settings.publicUrl()}${SANDBOX_SETUP_PAGE_PATH}/${checkoutSessionId}?${query}`;
  }

  setupWire(row: SandboxSetupSessionRow): SetupSessionWire {
    return {
      id: row.session_id,
      object: 'checkout.session',
      mode: 'setup',
      url: this.setupLink(row.session_id),
      status: row.status,
      payment_status: 'no_payment_required',
      customer: row.customer_id,
      currency: row.currency,
      client_reference_id: row.client_reference_id,
      metadata: row.metadata,
      setup_intent: row.setup_intent,
      success_url: row.success_url,
      cancel_url: row.cancel_url,
      created: seconds(row.created_at),
      livemode: false,
    };
  }

  private async setupIntentWire(row: SandboxSetupSessionRow): Promise<SetupIntentWire | null> {
    if (row.setup_intent === null || row.payment_method === null) return null;
    return {
      id: row.setup_intent,
      object: 'setup_intent',
      status: 'succeeded',
      customer: row.customer_id,
      usage: 'off_session',
      metadata: row.metadata,
      payment_method: row.payment_method,
      livemode: false,
    };
  }

  private async paymentMethod(paymentMethodId: string): Promise<PaymentMethodWire | null> {
    const rows: PaymentMethodRow[] = await this.dataSource.query(
      `SELECT payment_method_id, customer_id, test_card FROM sandbox_card_payment_methods WHERE payment_method_id = $1`,
      [paymentMethodId],
    );
    return rows[0] ? paymentMethodWire(rows[0].payment_method_id, rows[0].customer_id, rows[0].test_card) : null;
  }

  /**
   * Stripe's idempotency for a POST: under a lock on the key, a key seen before answers its first answer for the
   * same request and is refused for another; a new key's answer is kept with the change it made, in one
   * transaction. A refusal of the request's form is not kept (Stripe keeps no result for a request that failed
   * validation), so a corrected retry may use the key.
   */
  private idempotent(
    path: string,
    form: Record<string, string>,
    idempotencyKey: string | null,
    run: (manager: EntityManager) => Promise<StripeWireAnswer>,
  ): Promise<StripeWireAnswer> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      if (idempotencyKey === null) return run(manager);
      const request = idempotentRequestOf(path, form);
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('sandbox-card-idempotency'), hashtext($1))`, [
        idempotencyKey,
      ]);
      const known: Array<{ request: string; status: number; body: unknown }> = await manager.query(
        `SELECT request, status, body FROM sandbox_card_idempotency WHERE idempotency_key = $1`,
        [idempotencyKey],
      );
      if (known[0])
        return known[0].request === request ? { status: known[0].status, body: known[0].body } : IDEMPOTENCY_KEY_REUSED;
      const answer = await run(manager);
      if (answer.status === 200 || answer.status === 402)
        await manager.query(
          `INSERT INTO sandbox_card_idempotency (idempotency_key, request, status, body, created_at)
           VALUES ($1, $2, $3, $4, $5)`,
          [idempotencyKey, request, answer.status, JSON.stringify(answer.body), this.clock.now()],
        );
      return answer;
    });
  }
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

function bracketedMetadata(form: Readonly<Record<string, string>>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const name = /^metadata\[([^\]]+)\]$/.exec(key)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}
