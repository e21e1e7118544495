/** A payment id in the path is a positive whole number (docs/api.md, Basics); anything else names no payment. */
export function parsePaymentId(raw: string): number | null {
  if (!/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The `?paymentId=` a screen is opened with (the cashier's invoice page and the card checkout send the client back
 * with it); anything that is not a payment id is dropped.
 */
export function parsePaymentIdSearch(search: Record<string, unknown>): { paymentId?: number } {
  const paymentId = parsePaymentId(String(search.paymentId ?? ''));
  return paymentId === null ? {} : { paymentId };
}
