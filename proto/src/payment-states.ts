import {
  creditsUser,
  type Language,
  PAYMENT_STATUSES,
  type PaymentStatus,
  type PaymentType,
  type SubscriptionStatus,
} from './enums';

/**
 * How a payment reads on every screen and in the export (docs/product.md, Ledger, How payments are shown): which way
 * its money goes, whether it moved at all, and the colour its status and amount carry. Both UIs and the API take these
 * rules from here, so a deposit never looks like a withdrawal in one place and a failed payment never looks like money
 * received in another.
 */

export type PaymentDirection = 'IN' | 'OUT';

/** Which way a payment's money goes, from `creditsUser` (the types in `CREDITING_PAYMENT_TYPES` bring it in). */
export function paymentDirection(type: PaymentType): PaymentDirection {
  return creditsUser(type) ? 'IN' : 'OUT';
}

/**
 * The statuses staff may close a provider's payment held for `REVIEW` with (ADR 0058): none of them moves money.
 * What staff decide to credit they book as a manual deposit, so the ledger says who credited what and why.
 */
export const REVIEW_CLOSING_STATUSES: readonly PaymentStatus[] = Object.freeze(['FAILED', 'REJECTED', 'REFUNDED']);

/** The statuses staff may choose for a payment now: any for a manual one, `REVIEW` or a closing one for one held. */
export function staffStatusChoices(payment: { aggregator: string; status: PaymentStatus }): readonly PaymentStatus[] {
  if (payment.aggregator === 'MANUAL') return PAYMENT_STATUSES;
  return payment.status === 'REVIEW' ? ['REVIEW', ...REVIEW_CLOSING_STATUSES] : [payment.status];
}

/**
 * A payment's money is on the user's books exactly while its status is SUCCESS: a pending payment has not moved it
 * yet, and a failed, rejected, timed-out or refunded one moved none (or had it taken back).
 */
export function paymentMovedMoney(status: PaymentStatus): boolean {
  return status === 'SUCCESS';
}

/**
 * The payment's size signed by its direction, as seen from the user's balance: positive in, negative out. The
 * size's own sign is ignored, so an amount signed once already is not flipped twice. Works in any unit (cents in the
 * API and the export, dollars in the UIs).
 */
export function signedPaymentAmount(size: number, type: PaymentType): number {
  const magnitude = Math.abs(size);
  if (magnitude === 0) return 0;
  return paymentDirection(type) === 'IN' ? magnitude : -magnitude;
}

/** What the payment does to the balance now: its signed amount while it is SUCCESS, zero otherwise. */
export function paymentBalanceEffect(size: number, type: PaymentType, status: PaymentStatus): number {
  return paymentMovedMoney(status) ? signedPaymentAmount(size, type) : 0;
}

/**
 * The meaning a colour carries, named apart from any UI kit: each app maps it to its own palette. `bonus` marks money
 * the house gave (an ambassador bonus) apart from money the client paid.
 */
export type ColourIntent = 'success' | 'warning' | 'error' | 'neutral' | 'bonus';

/**
 * An AMBASSADOR_BONUS payment is money the house gave, not money the client paid in (docs/product.md, Referrals and
 * bonuses): every list shows it apart, with `PAYMENT_BONUS_MARK` and the `bonus` intent.
 */
export function isBonusPayment(type: PaymentType): boolean {
  return type === 'AMBASSADOR_BONUS';
}

/** The chip beside a bonus payment's amount, and the words of a balance's bonus part. */
export const PAYMENT_BONUS_MARK: Readonly<Record<Language, string>> = Object.freeze({ he: 'בונוס', en: 'Bonus' });

/** Status badges, the same in both apps: done is good, waiting needs an eye, failures are errors, a refund is a fact. */
export const PAYMENT_STATUS_INTENTS: Readonly<Record<PaymentStatus, ColourIntent>> = Object.freeze({
  SUCCESS: 'success',
  PENDING: 'warning',
  FAILED: 'error',
  REJECTED: 'error',
  TIMEOUT: 'error',
  REFUNDED: 'neutral',
  REVIEW: 'warning',
});

export function paymentStatusIntent(status: PaymentStatus): ColourIntent {
  return PAYMENT_STATUS_INTENTS[status] ?? 'neutral';
}

/**
 * Subscription status badges, the same in both apps: an active one is good; one still being set up, or one that runs
 * to its end without renewing, needs an eye; an ended one is a fact.
 */
export const SUBSCRIPTION_STATUS_INTENTS: Readonly<Record<SubscriptionStatus, ColourIntent>> = Object.freeze({
  ACTIVE: 'success',
  PENDING: 'warning',
  UNSUBSCRIBED: 'warning',
  EXPIRED: 'neutral',
  CANCELED: 'neutral',
  GRACE: 'warning',
});

export function subscriptionStatusIntent(status: SubscriptionStatus): ColourIntent {
  return SUBSCRIPTION_STATUS_INTENTS[status] ?? 'neutral';
}

/**
 * Whether an amount counts: `moved` (on the books), `pending` (not yet) or `void` (never will: failed, rejected,
 * timed out or refunded).
 */
export type PaymentAmountState = 'moved' | 'pending' | 'void';

export function paymentAmountState(status: PaymentStatus): PaymentAmountState {
  if (paymentMovedMoney(status)) return 'moved';
  // Money held for staff review is not on the books yet, and may still be once staff settle it.
  return status === 'PENDING' || status === 'REVIEW' ? 'pending' : 'void';
}

/** Everything a screen needs to draw a payment's amount. */
export interface PaymentAmountLook {
  /** Signed by direction even when no money moved, so a failed deposit still reads as a deposit. */
  signedAmount: number;
  direction: PaymentDirection;
  state: PaymentAmountState;
  /**
   * Money that moved is coloured by direction (in: success, out: error), a bonus that moved by `bonus`; money that did
   * not move is neutral.
   */
  intent: ColourIntent;
  /** The house gave this money (an ambassador bonus): the screen adds `PAYMENT_BONUS_MARK`. */
  bonus: boolean;
  /** Drawn in the secondary text colour: the amount is not (or not yet) part of the balance. */
  muted: boolean;
  /** Drawn struck through: the amount never reached, or was taken back from, the balance. */
  struck: boolean;
}

export function paymentAmountLook(payment: {
  amount: number;
  type: PaymentType;
  status: PaymentStatus;
}): PaymentAmountLook {
  const direction = paymentDirection(payment.type);
  const state = paymentAmountState(payment.status);
  const bonus = isBonusPayment(payment.type);
  const movedIntent: ColourIntent = bonus ? 'bonus' : direction === 'IN' ? 'success' : 'error';
  return {
    signedAmount: signedPaymentAmount(payment.amount, payment.type),
    direction,
    state,
    intent: state === 'moved' ? movedIntent : 'neutral',
    bonus,
    muted: state !== 'moved',
    struck: state === 'void',
  };
}

/**
 * Said beside an amount that is not part of the balance, for those who cannot see the strike-through or the muted
 * colour (a screen reader reads it; the UIs hide it visually).
 */
export const PAYMENT_AMOUNT_STATE_HINTS: Readonly<
  Record<Exclude<PaymentAmountState, 'moved'>, Record<Language, string>>
> = Object.freeze({
  pending: { he: 'ממתין, עדיין לא נכלל ביתרה', en: 'pending, not in the balance yet' },
  void: { he: 'לא נכלל ביתרה', en: 'not counted in the balance' },
});

export function paymentAmountStateHint(state: PaymentAmountState, lang: Language): string | null {
  return state === 'moved' ? null : PAYMENT_AMOUNT_STATE_HINTS[state][lang];
}

/**
 * How a customer sees whoever acted for Kupa (a staff member or the system): by the company's name, never by a
 * staff member's e-mail (docs/product.md, Ledger, What a client sees). The UIs show it under the app's own name.
 */
export const PUBLIC_STAFF_ACTOR_NAME = 'Kupa';
