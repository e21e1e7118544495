/**
 * What a deposit that buys or renews a package (by crypto or by card, ADR 0030, ADR 0058) must bring so that the
 * purchase can be paid once the money is on the balance. A balance at zero or above is left alone: the deposit asks
 * the whole price, as it always did, so the money on the balance stays the client's to spend. A negative balance (only
 * a confirmed staff override makes one) is debt the purchase would meet first, so the deposit asks the price plus the
 * debt; asking the price alone would pay the debt and buy nothing.
 */
export function depositNeededMinor(balanceMinor: number, priceMinor: number): number {
  return priceMinor + debtMinor(balanceMinor);
}

/** The debt a balance carries, in cents: how far it is below zero, 0 when it is not. */
export function debtMinor(balanceMinor: number): number {
  return Math.max(0, -balanceMinor);
}
