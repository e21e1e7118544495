/**
 * Who opened the deposit a sandbox invoice is for, so that the owner's own session may play the payer without the
 * invoice's link (docs/adr/0055-sandboxes-only-on-demand.md). The ledger knows; it binds this port, as it binds
 * identity's `UserBalances` (ADR 0013), so the platform never reads a context's tables.
 */
export abstract class SandboxInvoiceOwners {
  /** The user uuid of the crypto deposit whose payment id is the invoice's `order_id`; null when there is none. */
  abstract ownerOf(orderId: string): Promise<string | null>;
}
