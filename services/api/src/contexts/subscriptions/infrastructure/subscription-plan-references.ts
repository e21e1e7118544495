import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PlanReferences } from '../../catalog';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';

/**
 * The catalog's `PlanReferences` port over the subscriptions table (docs/adr/0021-catalog-plan-references.md): any
 * subscription that names a package, whatever its status, keeps the package and its price and duration. A purchase
 * locks the package's stream, as the catalog's commands do, so no reference appears between the answer and the
 * decision that relies on it.
 */
@Injectable()
export class SubscriptionPlanReferences extends PlanReferences {
  constructor(private readonly subscriptions: SubscriptionReader) {
    super();
  }

  isReferenced(planId: string, manager: EntityManager): Promise<boolean> {
    return this.subscriptions.isPlanReferenced(planId, manager);
  }

  countsOf(planIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.subscriptions.countsByPlan(planIds);
  }
}
