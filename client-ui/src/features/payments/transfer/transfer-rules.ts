/**
 * Whether a balance has nothing to send: at or below zero every transfer is refused with error.insufficient.balance,
 * so the screens say so before the form is filled in (ADR 0076). `balance` is in dollars, as the API sends it;
 * counted in cents so a float's noise cannot make a zero balance look positive.
 */
export function nothingToTransfer(balance: number): boolean {
  return Math.round(balance * 100) <= 0;
}
