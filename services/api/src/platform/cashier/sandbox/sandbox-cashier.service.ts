import { Injectable, Logger } from '@nestjs/common';
import {
  CRYPTO_PAY_CURRENCIES,
  type CashierProviderStatus,
  parseDecimal,
  SANDBOX_INVOICE_SIGNATURE_PARAM,
  SANDBOX_PAYMENT_PERCENT,
} from '@kupa/proto';
import { randomInt } from 'node:crypto';
import { sameText } from '../../crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../../auth';
import { Clock } from '../../clock';
import { ApiError } from '../../http';
import { CashierSettings } from '../cashier-settings';
import { SandboxInvoiceOwners } from './sandbox-invoice-owners';
import {
  IPN_SIGNATURE_HEADER,
  ipnSignature,
  type NowPaymentsInvoice,
  type NowPaymentsInvoiceRequest,
  type NowPaymentsPayment,
} from '../nowpayments';

/** Dollars per coin in the sandbox: fixed, so tests and demos can predict the crypto amounts. */
export const SANDBOX_RATES_USD: Readonly<Record<string, number>> = Object.freeze({
  [CRYPTO_PAY_CURRENCIES.CRYPTO_USDT_TRC20]: 1,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_USDT_ERC20]: 1,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_USDC_ERC20]: 1,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_DAI_ERC20]: 1,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_BTC]: 50_000,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_ETH]: 2_500,
  [CRYPTO_PAY_CURRENCIES.CRYPTO_LTC]: 80,
});

const COIN_DECIMALS = 8;

/** What the page's buttons (and the script routes) do. */
export const SANDBOX_ACTIONS = Object.freeze(['pay', 'partial', 'fail', 'expire'] as const);
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

/** Where a payment may go from: a closed one (paid in full, failed, expired) takes no more buttons. */
const OPEN_STATUSES: readonly string[] = ['waiting', 'confirming', 'partially_paid'];

export interface SandboxInvoiceRow {
  invoice_id: string;
  order_id: string;
  order_description: string;
  price_amount_minor: string;
  pay_currency: string;
  pay_amount: string;
  ipn_callback_url: string;
  success_url: string;
  cancel_url: string;
  created_at: Date;
}

interface SandboxPaymentRow {
  payment_id: string;
  invoice_id: string;
  status: CashierProviderStatus;
  actually_paid: string;
  created_at: Date;
  updated_at: Date;
}

export interface SandboxActionResult {
  invoiceId: string;
  paymentId: string;
  status: CashierProviderStatus;
  actuallyPaid: string;
  /** The HTTP status our IPN route answered each notification with, in the order they were sent. */
  ipnStatuses: number[];
}

/** A decimal count of coin with at most `COIN_DECIMALS` places, as the provider writes amounts. */
function coinText(units: bigint): string {
  const scale = 10n ** BigInt(COIN_DECIMALS);
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(COIN_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

function coinUnits(text: string): bigint | null {
  const decimal = parseDecimal(text);
  if (!decimal || decimal.scale > COIN_DECIMALS) return null;
  return decimal.digits * 10n ** BigInt(COIN_DECIMALS - decimal.scale);
}

function randomProviderId(): string {
  // Ten digits, as the provider's ids look; the first is never zero.
  return `${randomInt(1, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/**
 * The sandbox cashier (docs/adr/0028-crypto-cashier.md): a stand-in for NOWPayments inside our own server, on by
 * default, so that deposits work end to end with no outside service and the real adapter runs every time. It keeps
 * its invoices and payments in its own tables and sends signed IPNs to the callback address over real HTTP.
 */
@Injectable()
export class SandboxCashier {
  private readonly logger = new Logger('SandboxCashier');

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: CashierSettings,
    private readonly clock: Clock,
    private readonly owners: SandboxInvoiceOwners,
  ) {}

  /** Refuses every sandbox route while a real cashier is configured. */
  assertOn(): void {
    if (!this.settings.sandbox) throw new ApiError('error.cashier.sandbox.off');
  }

  /**
   * An invoice's page answers only its link: the id with the key the invoice URL carries. Anything else is
   * `error.cashier.invoice.not.found` (404), as another client's data is: a guessed id reveals nothing.
   */
  assertLink(invoiceId: string, signature: unknown): void {
    if (!this.linkHolds(invoiceId, signature)) throw new ApiError('error.cashier.invoice.not.found');
  }

  /**
   * Who may press an invoice's buttons: the holder of its link, or the deposit's owner signed in (their own session,
   * without the link). Anyone else, staff included, gets the same 404 as a guessed id.
   */
  async assertPayer(invoiceId: string, signature: unknown, actor: Actor | undefined): Promise<void> {
    if (this.linkHolds(invoiceId, signature)) return;
    const invoice = actor ? await this.invoice(invoiceId) : null;
    const owner = invoice ? await this.owners.ownerOf(invoice.order_id) : null;
    if (owner === null || owner !== actor?.userUuid) throw new ApiError('error.cashier.invoice.not.found');
  }

  private linkHolds(invoiceId: string, signature: unknown): boolean {
    return sameText(signature, this.settings.invoiceLinkSignature(invoiceId));
  }

  assertApiKey(apiKey: unknown): void {
    this.assertOn();
    if (apiKey !== this.settings.apiKey) throw new ApiError('error.cashier.api.key.invalid');
  }

  async createInvoice(request: NowPaymentsInvoiceRequest): Promise<NowPaymentsInvoice> {
    const rate = SANDBOX_RATES_USD[request.pay_currency];
    const priceMinor = Math.round(request.price_amount * 100);
    if (rate === undefined || !Number.isSafeInteger(priceMinor) || priceMinor <= 0 || !request.order_id)
      throw new ApiError('error.validation.invalid.input');
    const payAmount = coinText((BigInt(priceMinor) * 10n ** BigInt(COIN_DECIMALS)) / BigInt(rate * 100));
    const invoiceId = randomProviderId();
    const now = this.clock.now();
    await this.dataSource.query(
      `INSERT INTO sandbox_cashier_invoices (invoice_id, order_id, order_description, price_amount_minor, pay_currency,
         pay_amount, ipn_callback_url, success_url, cancel_url, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        invoiceId,
        request.order_id,
        request.order_description ?? '',
        priceMinor,
        request.pay_currency,
        payAmount,
        request.ipn_callback_url,
        request.success_url,
        request.cancel_url,
        now,
      ],
    );
    const invoice = await this.invoice(invoiceId);
    return this.invoiceAnswer(invoice);
  }

  async invoice(invoiceId: string): Promise<SandboxInvoiceRow> {
    const rows: SandboxInvoiceRow[] = await this.dataSource.query(
      `SELECT invoice_id, order_id, order_description, price_amount_minor::text, pay_currency, pay_amount,
              ipn_callback_url, success_url, cancel_url, created_at
         FROM sandbox_cashier_invoices WHERE invoice_id = $1`,
      [invoiceId],
    );
    if (!rows[0]) throw new ApiError('error.cashier.invoice.not.found');
    return rows[0];
  }

  /** The invoice's payment, if a button was pressed on it. */
  async paymentOfInvoice(invoiceId: string): Promise<SandboxPaymentRow | null> {
    const rows: SandboxPaymentRow[] = await this.dataSource.query(
      'SELECT * FROM sandbox_cashier_payments WHERE invoice_id = $1',
      [invoiceId],
    );
    return rows[0] ?? null;
  }

  async payment(paymentId: string): Promise<NowPaymentsPayment> {
    const rows: SandboxPaymentRow[] = await this.dataSource.query(
      'SELECT * FROM sandbox_cashier_payments WHERE payment_id = $1',
      [paymentId],
    );
    if (!rows[0]) throw new ApiError('error.cashier.invoice.not.found');
    return this.paymentAnswer(await this.invoice(rows[0].invoice_id), rows[0]);
  }

  /**
   * Does what a button does, then notifies the IPN callback: paying passes through `confirming` first, as a real
   * payment does, so our side sees a provider status before the money. `actuallyPaid` (scripts only) sets the coin
   * that arrived, for partial and over-payments within `SANDBOX_PAYMENT_PERCENT` of the invoice; by default `pay`
   * pays in full and `partial` half. A repeated or concurrent press on a closed invoice is
   * `error.cashier.invoice.closed` (409) and changes nothing.
   */
  async act(invoiceId: string, action: SandboxAction, actuallyPaid: string | null): Promise<SandboxActionResult> {
    const invoice = await this.invoice(invoiceId);
    const askedUnits = coinUnits(invoice.pay_amount) ?? 0n;
    const paidUnits = actuallyPaid === null ? null : this.boundedPayment(actuallyPaid, askedUnits);
    const plan = (alreadyPaid: bigint): Array<{ status: CashierProviderStatus; paidUnits: bigint }> => {
      switch (action) {
        case 'pay':
          return [
            { status: 'confirming', paidUnits: alreadyPaid },
            { status: 'finished', paidUnits: paidUnits ?? askedUnits },
          ];
        case 'partial':
          return [{ status: 'partially_paid', paidUnits: paidUnits ?? askedUnits / 2n }];
        case 'fail':
          return [{ status: 'failed', paidUnits: alreadyPaid }];
        case 'expire':
          return [{ status: 'expired', paidUnits: alreadyPaid }];
      }
    };
    const first = await this.step(invoiceId, (existing) =>
      plan(existing ? (coinUnits(existing.actually_paid) ?? 0n) : 0n),
    );
    const ipnStatuses: number[] = [await this.notify(invoice, first.row)];
    let last = first.row;
    for (const next of first.rest) {
      last = (await this.step(invoiceId, () => [next])).row;
      ipnStatuses.push(await this.notify(invoice, last));
    }
    return {
      invoiceId,
      paymentId: last.payment_id,
      status: last.status,
      actuallyPaid: last.actually_paid,
      ipnStatuses,
    };
  }

  /** The coin a script says arrived, within the sane share of what the invoice asks. */
  private boundedPayment(actuallyPaid: string, askedUnits: bigint): bigint {
    const units = coinUnits(actuallyPaid);
    if (units === null || units <= 0n) throw new ApiError('error.validation.invalid.input');
    if (
      units * 100n < askedUnits * BigInt(SANDBOX_PAYMENT_PERCENT.min) ||
      units * 100n > askedUnits * BigInt(SANDBOX_PAYMENT_PERCENT.max)
    )
      throw new ApiError('error.cashier.sandbox.amount.out.of.range', {
        minPercent: SANDBOX_PAYMENT_PERCENT.min,
        maxPercent: SANDBOX_PAYMENT_PERCENT.max,
      });
    return units;
  }

  /**
   * One change of the invoice's payment, under a lock on the invoice: two presses at once (a double click) take
   * turns, so the second sees the first's payment instead of inserting another one for the same invoice, and a
   * closed payment takes no more changes. The notification goes out after the commit, because our IPN route asks
   * the sandbox about the payment over HTTP and must see the change.
   */
  private async step(
    invoiceId: string,
    plan: (existing: SandboxPaymentRow | null) => Array<{ status: CashierProviderStatus; paidUnits: bigint }>,
  ): Promise<{ row: SandboxPaymentRow; rest: Array<{ status: CashierProviderStatus; paidUnits: bigint }> }> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.query('SELECT 1 FROM sandbox_cashier_invoices WHERE invoice_id = $1 FOR UPDATE', [invoiceId]);
      const existing: SandboxPaymentRow | null =
        (
          (await manager.query('SELECT * FROM sandbox_cashier_payments WHERE invoice_id = $1', [
            invoiceId,
          ])) as SandboxPaymentRow[]
        )[0] ?? null;
      if (existing && !OPEN_STATUSES.includes(existing.status)) throw new ApiError('error.cashier.invoice.closed');
      const [change, ...rest] = plan(existing);
      const rows: SandboxPaymentRow[] = await manager.query(
        `INSERT INTO sandbox_cashier_payments (payment_id, invoice_id, status, actually_paid, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (payment_id) DO UPDATE SET status = EXCLUDED.status, actually_paid = EXCLUDED.actually_paid,
           updated_at = EXCLUDED.updated_at
         RETURNING *`,
        [
          existing?.payment_id ?? randomProviderId(),
          invoiceId,
          change.status,
          coinText(change.paidUnits),
          this.clock.now(),
        ],
      );
      return { row: rows[0], rest };
    });
  }

  /**
   * Posts the payment, signed, to the path of the invoice's callback on our own origin (the sandbox is part of this
   * server, whatever the public address says). Returns the status our IPN route answered, 0 when it could not be
   * reached; a failed notification is logged, and the janitor re-checks the payment later, as with a real provider.
   */
  private async notify(invoice: SandboxInvoiceRow, payment: SandboxPaymentRow): Promise<number> {
    const body = this.paymentAnswer(invoice, payment);
    let target: string;
    try {
      const callback = new URL(invoice.ipn_callback_url);
      target = `${this.settings.ownOrigin()}${callback.pathname}${callback.search}`;
    } catch {
      this.logger.warn(`Invoice ${invoice.invoice_id} has an unusable IPN callback`);
      return 0;
    }
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IPN_SIGNATURE_HEADER]: ipnSignature(body, this.settings.ipnSecret),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
        redirect: 'error',
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      this.logger.warn(`The IPN of sandbox payment ${payment.payment_id} was not delivered: ${String(error)}`);
      return 0;
    }
  }

  /** The invoice's link: its page at our public address, with the key that lets its holder play the payer. */
  invoiceLink(invoiceId: string): string {
    const signature = this.settings.invoiceLinkSignature(invoiceId);
    return `${this.settings.publicUrl()}${SANDBOX_INVOICE_PAGE_PATH}/${invoiceId}?${SANDBOX_INVOICE_SIGNATURE_PARAM}=${signature}`;
  }

  invoiceAnswer(invoice: SandboxInvoiceRow): NowPaymentsInvoice {
    const createdAt = invoice.created_at.toISOString();
    return {
      id: invoice.invoice_id,
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      price_amount: String(Number(invoice.price_amount_minor) / 100),
      price_currency: 'usd',
      pay_currency: invoice.pay_currency,
      ipn_callback_url: invoice.ipn_callback_url,
      invoice_url: this.invoiceLink(invoice.invoice_id),
      success_url: invoice.success_url,
      cancel_url: invoice.cancel_url,
      created_at: createdAt,
      updated_at: createdAt,
    };
  }

  private paymentAnswer(invoice: SandboxInvoiceRow, payment: SandboxPaymentRow): NowPaymentsPayment {
    const priceAmount = Number(invoice.price_amount_minor) / 100;
    return {
      payment_id: Number(payment.payment_id),
      invoice_id: Number(invoice.invoice_id),
      payment_status: payment.status,
      pay_address: `sandbox-${invoice.pay_currency}-${invoice.invoice_id}`,
      price_amount: priceAmount,
      price_currency: 'usd',
      pay_amount: Number(invoice.pay_amount),
      actually_paid: Number(payment.actually_paid),
      pay_currency: invoice.pay_currency,
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      outcome_amount: Number(payment.actually_paid),
      outcome_currency: invoice.pay_currency,
      created_at: payment.created_at.toISOString(),
      updated_at: payment.updated_at.toISOString(),
    };
  }
}

/** The invoice page's path: an invoice's `invoice_url` is this, a slash and the invoice id. */
export const SANDBOX_INVOICE_PAGE_PATH = '/api/sandbox/cashier/invoices';
