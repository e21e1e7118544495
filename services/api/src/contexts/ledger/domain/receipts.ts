import type {
  CardDepositCreditedData,
  CashierDepositCreditedData,
  ManualDepositRecordedData,
  PromoCodeRedeemedData,
  ReceiptDiscountKind,
  ReceiptKind,
  SubscriptionPurchasedData,
  SubscriptionRenewedData,
  VoucherRedeemedData,
} from '@kupa/proto';

/**
 * The events that earn a receipt (docs/product.md, Receipts; ADR 0097): money that reached a client's balance by
 * any method, and a package's price taken from it. Each is an event that exists only once the money moved, so a
 * failed or refused payment, which appends none of them, never takes a number.
 */
export const RECEIPT_EVENT_TYPES = [
  'ManualDepositRecorded',
  'CashierDepositCredited',
  'CardDepositCredited',
  'VoucherRedeemed',
  'SubscriptionPurchased',
  'SubscriptionRenewed',
] as const;

/** Not a receipt of its own: the promo code a purchase of the same append was discounted by. */
export const PROMO_CODE_REDEEMED = 'PromoCodeRedeemed';

export type ReceiptEvent =
  | { type: 'ManualDepositRecorded'; data: ManualDepositRecordedData }
  | { type: 'CashierDepositCredited'; data: CashierDepositCreditedData }
  | { type: 'CardDepositCredited'; data: CardDepositCreditedData }
  | { type: 'VoucherRedeemed'; data: VoucherRedeemedData }
  | { type: 'SubscriptionPurchased'; data: SubscriptionPurchasedData }
  | { type: 'SubscriptionRenewed'; data: SubscriptionRenewedData };

/** What a receipt says that its event alone tells; the processor adds the method, the balance and the client. */
export interface ReceiptFacts {
  kind: ReceiptKind;
  userUuid: string;
  paymentId: number;
  amountMinor: number;
  /** The ledger transaction of a deposit, whose entry holds the balance after it; null for a purchase. */
  transactionId: string | null;
  /** A voucher's method is known from the event; the others are read from the payment. */
  voucher: boolean;
  listPriceMinor: number | null;
  discountMinor: number;
  discountKind: ReceiptDiscountKind | null;
  discountPercent: number;
  subscriptionId: string | null;
  /** The package as bought; a renewal names it from the subscription's purchase. */
  planName: string | null;
}

function deposit(
  data: { userUuid: string; paymentId: number; amountMinor: number; transaction: { transactionId: string } },
  voucher = false,
): ReceiptFacts {
  return {
    kind: 'DEPOSIT',
    userUuid: data.userUuid,
    paymentId: data.paymentId,
    amountMinor: data.amountMinor,
    transactionId: data.transaction.transactionId,
    voucher,
    listPriceMinor: null,
    discountMinor: 0,
    discountKind: null,
    discountPercent: 0,
    subscriptionId: null,
    planName: null,
  };
}

/**
 * A purchase's discount is what its list price lost. The referral discount and a promo code never add up (the larger
 * wins, ADR 0088), and the referral's percent is recorded on the purchase only when it won, so a discount with no
 * referral percent is the promo code's.
 */
function purchase(
  kind: 'PURCHASE' | 'RENEWAL',
  data: {
    userUuid: string;
    paymentId: number;
    priceMinor: number;
    listPriceMinor: number;
    discountPercent: number;
    subscriptionId: string;
  },
  planName: string | null,
): ReceiptFacts {
  const discountMinor = Math.max(0, data.listPriceMinor - data.priceMinor);
  return {
    kind,
    userUuid: data.userUuid,
    paymentId: data.paymentId,
    amountMinor: data.priceMinor,
    transactionId: null,
    voucher: false,
    listPriceMinor: data.listPriceMinor,
    discountMinor,
    discountKind: discountMinor === 0 ? null : data.discountPercent > 0 ? 'REFERRAL' : 'PROMO_CODE',
    discountPercent: discountMinor === 0 ? 0 : data.discountPercent,
    subscriptionId: data.subscriptionId,
    planName,
  };
}

/**
 * The receipt an event earns, or null: a trial, or a package given for a voucher, moved no money and earns none; so
 * does a purchase at no price.
 */
export function receiptFactsOf(event: ReceiptEvent): ReceiptFacts | null {
  switch (event.type) {
    case 'ManualDepositRecorded':
    case 'CashierDepositCredited':
    case 'CardDepositCredited':
      return event.data.amountMinor > 0 ? deposit(event.data) : null;
    case 'VoucherRedeemed':
      return event.data.amountMinor > 0 ? deposit(event.data, true) : null;
    case 'SubscriptionPurchased': {
      const { paymentId } = event.data;
      if (paymentId === null || event.data.priceMinor <= 0) return null;
      return purchase('PURCHASE', { ...event.data, paymentId }, event.data.planName);
    }
    case 'SubscriptionRenewed':
      return event.data.priceMinor > 0 ? purchase('RENEWAL', event.data, null) : null;
  }
}

/** The promo code named by a `PromoCodeRedeemed` of the same append, for the purchase's receipt. */
export function promoCodeOf(data: PromoCodeRedeemedData): { paymentId: number; code: string } {
  return { paymentId: data.paymentId, code: data.code };
}
