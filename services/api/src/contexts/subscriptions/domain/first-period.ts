import { addCalendarMonths, addDays } from './subscription-periods';

/**
 * How late the streaming account may be created and the first period still start at the purchase (ADR 0136): 10
 * minutes. A purchase's account is normally created within seconds (the provisioning processor's and the job
 * runner's polls, one call). With the default retry settings (`PROVISIONING_RETRY_BASE_MS` 30 s, doubling) the fifth
 * attempt starts 7.5 minutes after the first, and a job whose runner died mid-call is taken again after its lease
 * (`PROVISIONING_LEASE_MS`, 80 s by default): 10 minutes holds the usual case, four transient failures or one crash.
 * What the client can lose is the time between the purchase and the account, at most this bound: under 0.03 % of a
 * month, 0.7 % of a one-day trial. Beyond it (the service down, more retries) the period starts at the activation as
 * before, and a second job sets the account's expiry to its end.
 */
export const exactExpiryLatenessMs = 10 * 60 * 1000;

/** What fixes a first period's length: a day voucher's days, a trial's days, or the package's calendar months. */
export interface FirstPeriodTerms {
  durationInMonths: number;
  trialDays: number | null;
  voucherDays: number | null;
}

/** The end of a first period starting at `from`. */
export function firstPeriodEnd(terms: FirstPeriodTerms, from: Date): Date {
  if (terms.voucherDays !== null) return addDays(from, terms.voucherDays);
  return terms.trialDays !== null ? addDays(from, terms.trialDays) : addCalendarMonths(from, terms.durationInMonths);
}

/**
 * Where a first period counts from: `PURCHASE` when the account was created with the end of a period from the purchase
 * as its expiry and within `exactExpiryLatenessMs` of it (nothing more to tell the service), else `ACTIVATION`.
 */
export type FirstPeriodFrom = 'PURCHASE' | 'ACTIVATION';

export interface FirstPeriod {
  from: FirstPeriodFrom;
  startDate: Date;
  endDate: Date;
}

/**
 * The first period of a subscription whose account the streaming service now holds (ADR 0136). It starts at the
 * purchase, and ends where the account's expiry already is, when the account came promptly (activated at most
 * `exactExpiryLatenessMs` after the purchase) and was created expiring exactly one first period after the purchase;
 * otherwise (late, or an account created with another expiry, or one not known) it starts at the activation, so the
 * client loses nothing to the delay, and the service must be told the new end.
 */
export function firstPeriod(
  terms: FirstPeriodTerms & { purchasedAt: Date },
  activation: { at: Date; accountExpiresAt: Date | null },
): FirstPeriod {
  const fromPurchase = firstPeriodEnd(terms, terms.purchasedAt);
  const prompt = activation.at.getTime() - terms.purchasedAt.getTime() <= exactExpiryLatenessMs;
  if (prompt && activation.accountExpiresAt?.getTime() === fromPurchase.getTime())
    return { from: 'PURCHASE', startDate: terms.purchasedAt, endDate: fromPurchase };
  return { from: 'ACTIVATION', startDate: activation.at, endDate: firstPeriodEnd(terms, activation.at) };
}

/**
 * Whether the activation leaves the account's expiry to be set by a job of its own (`EXTEND_ACCOUNT` to its end
 * date): unless its period counts from the purchase, whose end the account was created with. An activation recorded
 * before ADR 0136 names no `periodFrom` and counted from itself: it gets its job, as it did.
 */
export function activationSetsAccountExpiry(activation: { periodFrom?: FirstPeriodFrom }): boolean {
  return activation.periodFrom !== 'PURCHASE';
}
