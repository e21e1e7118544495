import { Injectable } from '@nestjs/common';
import { PlanReferences } from './plan-references.port';

/**
 * The binding of `PlanReferences` while no context records subscriptions: there is no table a reference could be
 * in, so no package is referenced and every package may be deleted or repriced. The subscriptions context replaces
 * this binding with one over its own table (docs/adr/0021-catalog-plan-references.md); until then the rule is proven
 * by the plan decider's specs, for both answers.
 */
@Injectable()
export class NoSubscriptionsYet extends PlanReferences {
  isReferenced(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
