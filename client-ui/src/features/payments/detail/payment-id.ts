/** A payment id in the path is a positive whole number (docs/api.md, Basics); anything else names no payment. */
export function parsePaymentId(raw: string): number | null {
  if (!/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
