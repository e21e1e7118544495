import type { Bilingual } from './bilingual';
import { CRYPTO_METHODS, type CryptoMethod, type PaymentStatus } from './enums';

/**
 * The crypto cashier (docs/adr/0028-crypto-cashier.md): a NOWPayments-compatible provider, or the sandbox that
 * imitates it inside our own server when `CASHIER_URL` is unset and the sandboxes may run (`KUPA_SANDBOX`,
 * docs/adr/0055-sandboxes-only-on-demand.md).
 */
export const CASHIER_PROVIDERS = Object.freeze(['NOWPAYMENTS', 'SANDBOX'] as const);
export type CashierProvider = (typeof CASHIER_PROVIDERS)[number];

/** The payment statuses a NOWPayments payment goes through, as its API and IPNs spell them. */
export const CASHIER_PROVIDER_STATUSES = Object.freeze([
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const);
export type CashierProviderStatus = (typeof CASHIER_PROVIDER_STATUSES)[number];

/**
 * What each provider status means for our payment while nothing was credited yet (docs/product.md, Deposits).
 * `partially_paid` and `finished` credit what actually arrived; once anything was credited the payment stays SUCCESS
 * whatever the provider reports later (money on the balance is never taken back by a report).
 */
export const CASHIER_STATUS_MAPPING: Readonly<Record<CashierProviderStatus, PaymentStatus>> = Object.freeze({
  waiting: 'PENDING',
  confirming: 'PENDING',
  confirmed: 'PENDING',
  sending: 'PENDING',
  partially_paid: 'SUCCESS',
  finished: 'SUCCESS',
  failed: 'FAILED',
  refunded: 'REFUNDED',
  expired: 'TIMEOUT',
});

/** Provider statuses whose `actually_paid` is credited. */
export const CASHIER_CREDITING_STATUSES: readonly CashierProviderStatus[] = Object.freeze([
  'partially_paid',
  'finished',
]);

export const CASHIER_PROVIDER_STATUS_LABELS: Readonly<Record<CashierProviderStatus, Bilingual>> = Object.freeze({
  waiting: { he: 'ממתין לתשלום', en: 'Waiting for payment' },
  confirming: { he: 'התשלום מתקבל ברשת', en: 'Being confirmed on the network' },
  confirmed: { he: 'התשלום אושר ברשת', en: 'Confirmed on the network' },
  sending: { he: 'בהעברה אלינו', en: 'Being forwarded to us' },
  partially_paid: { he: 'שולם חלקית', en: 'Partly paid' },
  finished: { he: 'שולם', en: 'Paid' },
  failed: { he: 'נכשל', en: 'Failed' },
  refunded: { he: 'הוחזר למשלם', en: 'Refunded to the payer' },
  expired: { he: 'פג תוקף', en: 'Expired' },
});

export function isCashierProviderStatus(value: unknown): value is CashierProviderStatus {
  return typeof value === 'string' && (CASHIER_PROVIDER_STATUSES as readonly string[]).includes(value);
}

/** The `pay_currency` code NOWPayments uses for each of our crypto methods. */
export const CRYPTO_PAY_CURRENCIES: Readonly<Record<CryptoMethod, string>> = Object.freeze({
  CRYPTO_USDT_TRC20: 'usdttrc20',
  CRYPTO_USDT_ERC20: 'usdterc20',
  CRYPTO_USDC_ERC20: 'usdc',
  CRYPTO_DAI_ERC20: 'dai',
  CRYPTO_BTC: 'btc',
  CRYPTO_ETH: 'eth',
  CRYPTO_LTC: 'ltc',
});

export function cryptoMethodOfPayCurrency(payCurrency: string): CryptoMethod | null {
  const lower = payCurrency.toLowerCase();
  return CRYPTO_METHODS.find((method) => CRYPTO_PAY_CURRENCIES[method] === lower) ?? null;
}

/** The deposit limits when the operator sets none (`CASHIER_DEPOSIT_MIN`, `CASHIER_DEPOSIT_MAX`, in dollars). */
export const CASHIER_DEFAULTS = Object.freeze({
  depositMinMinor: 500,
  depositMaxMinor: 500_000,
  /** A deposit still PENDING this long after its invoice opened becomes TIMEOUT (`CASHIER_PENDING_TIMEOUT_MINUTES`). */
  pendingTimeoutMinutes: 24 * 60,
  /** Open invoices one client may have at once: bounds what one account can ask the provider (or the sandbox) for. */
  pendingDepositsPerUserMax: 10,
  /** How often the client's screen asks about a pending invoice. */
  statusPollIntervalMs: 5000,
});

/**
 * What a sandbox payment may bring when a script names `actuallyPaid`, as a share of the invoice's coin: enough for
 * partial and over-payments to be tried, never an amount the invoice did not ask for by orders of magnitude.
 */
export const SANDBOX_PAYMENT_PERCENT = Object.freeze({ min: 1, max: 200 });

/** The query parameter of a sandbox invoice's link that carries its key (docs/api.md, Sandbox cashier). */
export const SANDBOX_INVOICE_SIGNATURE_PARAM = 'signature';

/** A decimal number as digits and a power of ten: `0.0123` is `{ digits: 123n, scale: 4 }`. */
interface Decimal {
  digits: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Reads a non-negative decimal from a provider's number or string without going through binary floating point. */
export function parseDecimal(value: number | string): Decimal | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? String(value) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? 0);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 40 || match[1].length + fraction.length > 60) return null;
  let digits = BigInt(match[1] + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/**
 * The dollars, in cents, that a crypto amount received is worth at the invoice's own rate: the price asked times
 * what arrived over what was asked in crypto, rounded down to the cent (we never credit a fraction that did not
 * arrive). Null when the amounts are unreadable or the asked crypto amount is zero.
 */
export function receivedMinorAtInvoiceRate(
  priceMinor: number,
  payAmount: number | string,
  actuallyPaid: number | string,
): number | null {
  const asked = parseDecimal(payAmount);
  const paid = parseDecimal(actuallyPaid);
  if (!asked || !paid || asked.digits === 0n) return null;
  // priceMinor × (paid.digits / 10^paid.scale) / (asked.digits / 10^asked.scale)
  const numerator = BigInt(priceMinor) * paid.digits * 10n ** BigInt(asked.scale);
  const denominator = asked.digits * 10n ** BigInt(paid.scale);
  const minor = numerator / denominator;
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}

/** The cashier's side of a payment, as staff and the payment's owner read it. Amounts in dollars. */
export interface PaymentCashier {
  provider: CashierProvider;
  invoiceId: string;
  invoiceUrl: string;
  /** NOWPayments' payment id, known from the first report on the invoice; null before. */
  providerPaymentId: string | null;
  /** The provider's last reported status; null before the first report. */
  providerStatus: CashierProviderStatus | null;
  /** The crypto the client chose to pay in, as the provider names it (`usdttrc20`). */
  payCurrency: string;
  amountAsked: number;
  /** What arrived and was credited, in dollars at the invoice's rate. */
  amountReceived: number;
  /**
   * Dollars reported that were not credited because they took the deposit above the per-payment maximum
   * (`CASHIER_DEPOSIT_MAX`): the payment is then `REVIEW` for staff (ADR 0058); null otherwise.
   */
  amountHeld: number | null;
}

/** `GET /payments/crypto/options`: what the deposit form offers. */
export interface CryptoDepositOptions {
  minAmount: number;
  maxAmount: number;
  methods: CryptoMethod[];
  /** `SANDBOX` when no real provider is configured: the invoice page is our own test page. */
  provider: CashierProvider;
}
