import type { EntityManager } from 'typeorm';

/**
 * Whether any subscription refers to a package (docs/adr/0021-catalog-plan-references.md). A referenced package
 * cannot be deleted, nor change its price or duration (docs/product.md, Catalog). The catalog owns packages and
 * nothing about subscriptions: the context that records subscriptions binds this port to its own tables, as the
 * ledger binds identity's `UserBalances` (ADR 0013), and the catalog never reads those tables itself.
 */
export abstract class PlanReferences {
  /**
   * Asked inside the command's transaction, under the package's stream lock, with that transaction's manager: a
   * purchase that names the package locks the same stream, so no reference can appear between the answer and the
   * decision that relies on it.
   */
  abstract isReferenced(planId: string, manager: EntityManager): Promise<boolean>;

  /**
   * How many subscriptions name each of `planIds`, for staff to see a package in use before they try to delete it
   * (ADR 0078); a package no subscription names is absent. A read for screens, not for a decision.
   */
  abstract countsOf(planIds: readonly string[]): Promise<ReadonlyMap<string, number>>;
}
