import { parsePaymentIdSearch } from '../detail/payment-id';

/** What the top-up page is opened with: a deposit to show (`?paymentId=`) and an amount to start from. */
export interface DepositSearch {
  paymentId?: number;
  /** Cents to prefill (`?amountMinor=`, the reminders' one-click top-up link), for every method. */
  amountMinor?: number;
}

/** The top-up page's search: a positive whole number of cents is kept as the amount; anything else is dropped. */
export function parseDepositSearch(search: Record<string, unknown>): DepositSearch {
  const raw = String(search.amountMinor ?? '');
  const amountMinor = /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
  return { ...parsePaymentIdSearch(search), ...(amountMinor > 0 ? { amountMinor } : {}) };
}

/** Cents as the amount field reads them: `1250` → `12.50`, `4000` → `40`. */
export function amountInputOf(amountMinor: number): string {
  return amountMinor % 100 === 0 ? String(amountMinor / 100) : (amountMinor / 100).toFixed(2);
}
