import type {
  CardProvider,
  CardProviderStatus,
  CardReportedMismatch,
  CashierProvider,
  CashierProviderStatus,
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

/** A payment as its stream tells it: what was recorded, and its status now. Null before it is recorded. */
export interface PaymentState extends PaymentRecordedData {
  status: PaymentStatus;
  updatedAt: string;
  /** Null for every payment but a crypto deposit. */
  cashier: PaymentCashierState | null;
  /** Null for every payment but a card deposit. */
  card: PaymentCardState | null;
  /** A SUBSCRIPTION_PAYMENT refunded to the balance (ADR 0092): the REFUND payment; absent or null otherwise. */
  refundedByPaymentId?: number | null;
}
