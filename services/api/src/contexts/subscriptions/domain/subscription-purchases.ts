import type { ErrorCode, SubscriptionPurchasedData, SubscriptionRenewedData } from '@kupa/proto';
import { assert, DomainError } from '../../../kernel';
import { purchaseSubscription, renewSubscription } from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import type { SubscriptionState } from './subscription.state';

/**
 * The decisions that span the subscription and the money that pays for it (docs/adr/0024-subscriptions.md, ADR 0030):
 * pure, from the folded subscription and facts read beforehand to the subscription's events and the charge the
 * ledger books beside them. The handlers and the application services lock the streams and hand the charge to the
 * ledger's `SubscriptionPayments`; these functions hold the rules.
 */

/** What the buyer's wallet pays for a purchase or a renewal, as the ledger's SUBSCRIPTION_PAYMENT records it. */
export interface SubscriptionCharge {
  amountMinor: number;
  discountPercent: number;
}

export interface PurchaseDecision {
  subscription: SubscriptionEvent[];
  purchased: SubscriptionPurchasedData;
  charge: SubscriptionCharge;
}

export interface RenewalDecision {
  subscription: SubscriptionEvent[];
  renewed: SubscriptionRenewedData;
  charge: SubscriptionCharge;
}

/**
 * A package bought from the balance: the subscription at the package's price less the referral discount, and the
 * charge of that price. A purchase quoted earlier (a deposit or a card checkout that pays for it) is refused when the
 * price rose since (`error.plan.no.longer.available`); the same price or a lower one is bought. The package's terms
 * are read under its stream's lock and for sale (the catalog's `planForSale`).
 */
export function decidePurchase(
  command: Parameters<typeof purchaseSubscription>[0] & {
    /** The price the buyer was shown when the purchase was asked for earlier; null when it is decided now. */
    quotedPriceMinor: number | null;
  },
  state: SubscriptionState,
): PurchaseDecision {
  const { quotedPriceMinor, ...purchase } = command;
  const subscription = purchaseSubscription(purchase, state);
  const [event] = subscription;
  assert(event?.type === 'SubscriptionPurchased', 'a purchase decides one SubscriptionPurchased');
  const purchased = event.data;
  refuseAboveQuote(purchased.priceMinor, quotedPriceMinor);
  return {
    subscription,
    purchased,
    charge: { amountMinor: purchased.priceMinor, discountPercent: purchased.discountPercent },
  };
}

/**
 * One more period, charged at the price as bought less the owner's referral discount of the moment. A renewal quoted
 * earlier (a deposit that pays for it) is refused when that price rose above the quote.
 */
export function decideRenewal(
  command: Parameters<typeof renewSubscription>[0] & { quotedPriceMinor: number | null },
  state: SubscriptionState,
): RenewalDecision {
  const { quotedPriceMinor, ...renewal } = command;
  const subscription = renewSubscription(renewal, state);
  const [event] = subscription;
  assert(event?.type === 'SubscriptionRenewed', 'a renewal decides one SubscriptionRenewed');
  const renewed = event.data;
  refuseAboveQuote(renewed.priceMinor, quotedPriceMinor);
  return {
    subscription,
    renewed,
    charge: { amountMinor: renewed.priceMinor, discountPercent: renewed.discountPercent },
  };
}

/**
 * What renewing now would cost, asked before a deposit is opened for it: the renewal's own rules at this instant
 * (already paid a period ahead, ended, a trial, PENDING: refused), then the price as bought less the discount.
 */
export function quoteRenewal(
  command: { discountPercent: number; at: Date },
  state: SubscriptionState,
): { priceMinor: number; listPriceMinor: number; planId: string } {
  const { renewed } = decideRenewal({ ...command, paymentId: 0, automatic: false, quotedPriceMinor: null }, state);
  assert(state.exists && state.planId !== null, 'a renewal is of a package');
  return { priceMinor: renewed.priceMinor, listPriceMinor: renewed.listPriceMinor, planId: state.planId };
}

/** The quote rule: a price above the one the buyer was shown is no longer what they asked for. */
export function refuseAboveQuote(priceMinor: number, quotedPriceMinor: number | null): void {
  if (quotedPriceMinor !== null && priceMinor > quotedPriceMinor)
    throw new DomainError('error.plan.no.longer.available');
}

/** How a deposit's purchase ends: DONE with the events that buy or renew, or FAILED with the refusal's code. */
export type DepositPurchaseDecision<Events> =
  { status: 'DONE'; events: Events } | { status: 'FAILED'; errorCode: ErrorCode };

/**
 * The deposit-buy decision (ADR 0030): once the money is on the balance, the purchase or renewal it pays for is decided
 * by the same rules as from the balance (`decide`). A rule's refusal does not undo the credit: the purchase records
 * FAILED with the refusal's code and the money stays on the balance. A refusal known before the decision (a login
 * taken meanwhile, found by the unique index) fails it the same way. Anything else is a bug and is thrown.
 */
export function decideDepositPurchase<Events>(
  decide: () => Events,
  knownRefusal: ErrorCode | null = null,
): DepositPurchaseDecision<Events> {
  if (knownRefusal !== null) return { status: 'FAILED', errorCode: failureCodeOf(new DomainError(knownRefusal)) };
  try {
    return { status: 'DONE', events: decide() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: 'FAILED', errorCode: failureCodeOf(error) };
  }
}

/**
 * The refusal-to-failure rule: the code a failed deposit purchase records. A package withdrawn or deleted since the
 * deposit opened reads as no longer available, like a price that rose; every other refusal keeps its own code.
 */
export function failureCodeOf(error: DomainError): ErrorCode {
  if (error.code === 'error.payment.plan.not.active' || error.code === 'error.payment.plan.not.found')
    return 'error.plan.no.longer.available';
  return error.code;
}
