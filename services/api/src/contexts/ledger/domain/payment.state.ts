import type {
  CardProvider,
  CardProviderStatus,
  CardReportedMismatch,
  CashierProvider,
  CashierProviderStatus,
  DepositPurchase,
  DepositPurchaseKind,
  DepositPurchaseStatus,
  ErrorCode,
  PaymentRecordedData,
  PaymentStatus,
} from '@kupa/proto';

/** One provider payment on a deposit's invoice: its last status and everything it brought, in cents. */
export interface ProviderPaymentState {
  status: CashierProviderStatus | null;
  receivedMinor: number;
}

/** The cashier's side of a crypto deposit (ADR 0028): its invoice and what the provider reported on it. */
export interface PaymentCashierState {
  provider: CashierProvider;
  invoiceId: string;
  invoiceUrl: string;
  payCurrency: string;
  amountAskedMinor: number;
  /** The provider payment reported last, and its status: what the payment's screens show. */
  providerPaymentId: string | null;
  providerStatus: CashierProviderStatus | null;
  /** Every provider payment reported on the invoice: a later report credits only what its own payment added. */
  providerPayments: Readonly<Record<string, ProviderPaymentState>>;
  /** The sum of what every provider payment brought: what is on the client's balance. */
  amountReceivedMinor: number;
  /** Cents reported above the per-payment maximum and held for staff, not credited (ADR 0058); null otherwise. */
  heldMinor: number | null;
}

/** The card provider's side of a card deposit (docs/adr/0029-card-checkout.md): its checkout and what it brought. */
export interface PaymentCardState {
  provider: CardProvider;
  checkoutSessionId: string;
  checkoutUrl: string;
  amountAskedMinor: number;
  providerPaymentId: string | null;
  providerStatus: CardProviderStatus;
  amountReceivedMinor: number;
  /** The provider's webhook events already applied: a repeat of one decides nothing. */
  providerEventIds: readonly string[];
  /** What a paid checkout reported when its currency or total was not what was asked (ADR 0058); null otherwise. */
  mismatch: CardReportedMismatch | null;
}

/**
 * What a crypto deposit pays for beyond the balance (docs/adr/0030-deposit-and-buy.md): the purchase or renewal the
 * `deposit-purchases` processor runs once the money arrives, and how it went.
 */
export interface PaymentPurchaseState {
  kind: DepositPurchaseKind;
  paymentPlanId: string;
  planName: string;
  /** RENEW: the subscription to renew. BUY: the id the new subscription takes (shown only once it exists). */
  subscriptionId: string;
  /** BUY: the login at the streaming service; null for RENEW. */
  login: string | null;
  /** The price the client was quoted, after the referral discount: the most the purchase may cost. */
  priceMinor: number;
  discountPercent: number;
  status: DepositPurchaseStatus;
  errorCode: ErrorCode | null;
  /** The SUBSCRIPTION_PAYMENT that paid for it, once DONE. */
  subscriptionPaymentId: number | null;
}

/** A payment as its stream tells it: what was recorded, and its status now. Null before it is recorded. */
export interface PaymentState extends PaymentRecordedData {
  status: PaymentStatus;
  updatedAt: string;
  /** Null for every payment but a crypto deposit. */
  cashier: PaymentCashierState | null;
  /** Null for every payment but a card deposit. */
  card: PaymentCardState | null;
  /** Null for every payment but a crypto deposit that buys or renews a subscription. */
  purchase: PaymentPurchaseState | null;
}

/**
 * What a client reads of a deposit's purchase: a bought subscription's id only once it exists (before that it is an
 * id reserved for it, which names nothing yet).
 */
export function depositPurchaseOf(purchase: PaymentPurchaseState): DepositPurchase {
  return {
    kind: purchase.kind,
    paymentPlanId: purchase.paymentPlanId,
    planName: purchase.planName,
    subscriptionId: purchase.kind === 'RENEW' || purchase.status === 'DONE' ? purchase.subscriptionId : null,
    status: purchase.status,
    errorCode: purchase.errorCode,
  };
}
