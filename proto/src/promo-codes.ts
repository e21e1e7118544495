import type { IsoDateTime } from './payloads';
import { discountedPriceMinor } from './rewards';

/*
 * Promo codes (docs/adr/0088-promo-codes.md): an admin's code that takes a percent or a fixed amount off a purchase
 * or a renewal, within limits. One stream per code, `promo-code-{CODE}`, named by the code itself in capitals so that
 * codes are case-insensitive and unique by construction, and every use of a code is counted under its stream's lock.
 */

/** Whether a code takes a percent off the list price or a fixed amount. */
export const PROMO_CODE_DISCOUNT_KINDS = Object.freeze(['PERCENT', 'AMOUNT'] as const);
export type PromoCodeDiscountKind = (typeof PROMO_CODE_DISCOUNT_KINDS)[number];

/** What a code may pay for: buying a package, renewing a subscription. */
export const PROMO_CODE_USES = Object.freeze(['PURCHASE', 'RENEWAL'] as const);
export type PromoCodeUse = (typeof PROMO_CODE_USES)[number];

/** Which discount a price was computed with: none, the buyer's referral discount, or a promo code (the larger wins). */
export const APPLIED_DISCOUNTS = Object.freeze(['NONE', 'REFERRAL', 'PROMO_CODE'] as const);
export type AppliedDiscount = (typeof APPLIED_DISCOUNTS)[number];

export const PROMO_CODE_EVENT_TYPES = Object.freeze({
  created: 'PromoCodeCreated',
  disabled: 'PromoCodeDisabled',
  redeemed: 'PromoCodeRedeemed',
  reserved: 'PromoCodeReserved',
  reservationReleased: 'PromoCodeReservationReleased',
} as const);
export type PromoCodeEventType = (typeof PROMO_CODE_EVENT_TYPES)[keyof typeof PROMO_CODE_EVENT_TYPES];

export const PROMO_CODE_STREAM_PREFIX = 'promo-code-';

/** 3 to 32 letters, digits, `-` or `_`; compared in capitals. */
const PROMO_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/** The code as stored and compared: trimmed, in capitals; null when it is not a code's form. */
export function normalizePromoCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return PROMO_CODE_PATTERN.test(code) ? code : null;
}

export function promoCodeStreamId(code: string): string {
  return `${PROMO_CODE_STREAM_PREFIX}${code}`;
}

/** What a code gives and to whom, as the admin set it. Null limits are no limit. */
export interface PromoCodeTerms {
  discountKind: PromoCodeDiscountKind;
  /** 1–99, for PERCENT; null for AMOUNT. */
  percent: number | null;
  /** The fixed amount off in minor units, for AMOUNT; null for PERCENT. */
  amountMinor: number | null;
  /** What it pays for: one of or both PURCHASE and RENEWAL. */
  appliesTo: PromoCodeUse[];
  /** The packages it is for; null for every package. */
  planIds: string[] | null;
  validFrom: IsoDateTime | null;
  validUntil: IsoDateTime | null;
  maxUses: number | null;
  maxUsesPerClient: number | null;
  /** Only for a client who never bought a package before. */
  newClientsOnly: boolean;
}

export interface PromoCodeCreatedData extends PromoCodeTerms {
  code: string;
  createdAt: IsoDateTime;
}

export interface PromoCodeDisabledData {
  code: string;
  disabledAt: IsoDateTime;
}

/**
 * A payment used the code: appended in the same transaction as the payment it discounted, so the use is counted
 * exactly when the payment exists.
 */
export interface PromoCodeRedeemedData {
  code: string;
  userUuid: string;
  use: PromoCodeUse;
  paymentId: number;
  subscriptionId: string;
  planId: string;
  listPriceMinor: number;
  discountMinor: number;
  priceMinor: number;
  redeemedAt: IsoDateTime;
  /** The card checkout's or crypto deposit's payment whose reservation this use settles; absent from the balance. */
  depositPaymentId?: number;
}

/**
 * A card checkout or a crypto deposit opened at a price with the code: the use is held for it, counted against the
 * limits like a use until it settles (`PromoCodeRedeemed` with its `depositPaymentId`), is released, or expires with
 * the checkout or deposit at `expiresAt`.
 */
export interface PromoCodeReservedData {
  code: string;
  userUuid: string;
  use: PromoCodeUse;
  /** The deposit's (or checkout's) payment id: the reservation's key. */
  depositPaymentId: number;
  subscriptionId: string;
  planId: string;
  listPriceMinor: number;
  discountMinor: number;
  priceMinor: number;
  reservedAt: IsoDateTime;
  expiresAt: IsoDateTime;
}

/** Why a reservation stopped holding a use without becoming one: its purchase failed, or its checkout closed. */
export const PROMO_CODE_RELEASE_REASONS = Object.freeze(['PURCHASE_FAILED', 'CHECKOUT_CLOSED'] as const);
export type PromoCodeReleaseReason = (typeof PROMO_CODE_RELEASE_REASONS)[number];

export interface PromoCodeReservationReleasedData {
  code: string;
  userUuid: string;
  depositPaymentId: number;
  reason: PromoCodeReleaseReason;
  releasedAt: IsoDateTime;
}

export interface PromoCodeEventDataByType {
  PromoCodeCreated: PromoCodeCreatedData;
  PromoCodeDisabled: PromoCodeDisabledData;
  PromoCodeRedeemed: PromoCodeRedeemedData;
  PromoCodeReserved: PromoCodeReservedData;
  PromoCodeReservationReleased: PromoCodeReservationReleasedData;
}

export type PromoCodeEvent = {
  [Type in PromoCodeEventType]: { type: Type; data: PromoCodeEventDataByType[Type] };
}[PromoCodeEventType];

/**
 * The amount a code takes off a list price, in minor units: a percent rounded half up (as the referral discount is),
 * a fixed amount as it is; never more than leaves the smallest payment, one minor unit, since every payment in the
 * ledger is positive.
 */
export function promoDiscountMinor(
  listPriceMinor: number,
  terms: Pick<PromoCodeTerms, 'discountKind' | 'percent' | 'amountMinor'>,
): number {
  const off =
    terms.discountKind === 'PERCENT'
      ? listPriceMinor - discountedPriceMinor(listPriceMinor, terms.percent ?? 0)
      : (terms.amountMinor ?? 0);
  return Math.max(0, Math.min(off, listPriceMinor - 1));
}

/** A price with the better of the referral discount and a code's discount: the larger discount wins, never both. */
export interface OfferPrice {
  listPriceMinor: number;
  priceMinor: number;
  applied: AppliedDiscount;
  /** The referral discount the price used: the buyer's percent when it won, else 0. */
  discountPercent: number;
  /** What the code took off when it won, else 0. */
  promoDiscountMinor: number;
}

/**
 * The combination rule (docs/product.md, Promo codes): the referral discount and a code never add up; the one that
 * takes more off wins, and on a tie the referral discount does, so the code is not spent for nothing.
 */
export function bestOfferPrice(
  listPriceMinor: number,
  referralPercent: number,
  codeDiscountMinor: number | null,
): OfferPrice {
  const referralPriceMinor = discountedPriceMinor(listPriceMinor, referralPercent);
  const referralOffMinor = listPriceMinor - referralPriceMinor;
  if (codeDiscountMinor !== null && codeDiscountMinor > referralOffMinor)
    return {
      listPriceMinor,
      priceMinor: listPriceMinor - codeDiscountMinor,
      applied: 'PROMO_CODE',
      discountPercent: 0,
      promoDiscountMinor: codeDiscountMinor,
    };
  return {
    listPriceMinor,
    priceMinor: referralPriceMinor,
    applied: referralOffMinor > 0 ? 'REFERRAL' : 'NONE',
    discountPercent: referralOffMinor > 0 ? referralPercent : 0,
    promoDiscountMinor: 0,
  };
}

/** A code as the console lists it (dollars, as every amount at the API's edge): its terms, state and takings. */
export interface PromoCodeView {
  code: string;
  discountKind: PromoCodeDiscountKind;
  percent: number | null;
  /** The fixed amount off, in dollars; null for a percent. */
  amount: number | null;
  appliesTo: PromoCodeUse[];
  planIds: string[] | null;
  validFrom: IsoDateTime | null;
  validUntil: IsoDateTime | null;
  maxUses: number | null;
  maxUsesPerClient: number | null;
  newClientsOnly: boolean;
  status: 'ACTIVE' | 'DISABLED';
  uses: number;
  /** What the payments that used it paid, in dollars. */
  revenue: number;
  /** What it took off those payments, in dollars. */
  discountGiven: number;
  createdAt: IsoDateTime;
  disabledAt: IsoDateTime | null;
}

/** `POST /promo-codes`: absent limits are no limit. */
export interface CreatePromoCodeRequest {
  code: string;
  discountKind: PromoCodeDiscountKind;
  percent?: number;
  /** Dollars off, for AMOUNT. */
  amount?: number;
  appliesTo: PromoCodeUse[];
  planIds?: string[];
  validFrom?: IsoDateTime;
  validUntil?: IsoDateTime;
  maxUses?: number;
  maxUsesPerClient?: number;
  newClientsOnly?: boolean;
}

/** `GET /promo-codes/quote`: what the client would pay with the code, before confirming, in dollars. */
export interface PromoCodeQuote {
  code: string;
  listPrice: number;
  price: number;
  applied: AppliedDiscount;
  /** The referral percent the price used, when it won; else 0. */
  discountPercent: number;
  /** What the code takes off, when it won; else 0. */
  promoDiscount: number;
  currency: 'USD';
}

/** The optional code the buy and renew calls accept: from the balance, by card checkout and by crypto deposit. */
export interface WithPromoCode {
  /** Any case; surrounding spaces are dropped. Absent or empty: no code. */
  promoCode?: string;
}

/**
 * A live hold on a code (`GET /promo-codes/{code}/holds`): one use held for a card checkout or a crypto deposit not
 * settled yet, and not past its `expiresAt` (after which it no longer counts against the limits).
 */
export interface PromoCodeHold {
  code: string;
  userUuid: string;
  /** The client's e-mail address; their uuid when the account is gone. */
  userEmail: string;
  /** The deposit (or card checkout) payment that holds the use. */
  depositPaymentId: number;
  subscriptionId: string;
  /** What the client will pay with the code, and what it takes off the list price, in dollars. */
  price: number;
  discount: number;
  heldSince: IsoDateTime;
  expiresAt: IsoDateTime;
}
