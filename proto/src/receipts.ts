import type { PaymentMethod } from './enums';
import type { IsoDateTime } from './payloads';

/**
 * Receipts (docs/product.md, Receipts; ADR 0097): one per successful money-in or purchase, numbered from a sequence of
 * their own with no gaps. A DEPOSIT is money that reached the balance (manual, crypto, card, voucher); a PURCHASE or
 * RENEWAL is a package's price taken from it.
 */
export const RECEIPT_KINDS = ['DEPOSIT', 'PURCHASE', 'RENEWAL'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/** Which discount a purchase got: the referral discount or a promo code (the larger wins, ADR 0088). */
export type ReceiptDiscountKind = 'REFERRAL' | 'PROMO_CODE';

export interface Receipt {
  number: number;
  issuedAt: IsoDateTime;
  kind: ReceiptKind;
  method: PaymentMethod;
  paymentId: number;
  userUuid: string;
  clientName: string;
  clientEmail: string;
  profileId: string | null;
  currency: string;
  /** What reached the balance (a deposit) or what was taken from it (a purchase or renewal). */
  amount: number;
  /** A crypto deposit: what its invoice asked for; null for every other receipt. */
  amountAsked: number | null;
  /** A purchase or renewal: the package's price before the discount; null for a deposit. */
  listPrice: number | null;
  discount: number;
  discountKind: ReceiptDiscountKind | null;
  discountPercent: number;
  promoCode: string | null;
  planName: string | null;
  /** The balance right after this money moved. */
  balanceAfter: number | null;
}

export interface ReceiptList {
  items: Receipt[];
}

/**
 * What a receipt says in words lives in `receipt-lines.ts`, which the index does not export: the client portal puts
 * every module the index reaches into its first screen (ADR 0048), and only its lazy receipt screens need the words.
 */
