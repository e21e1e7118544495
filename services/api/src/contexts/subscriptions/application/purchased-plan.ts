import type { planForSale } from '../../catalog';
import type { PurchasedPlan } from '../domain/subscription.decider';

/** The package as a purchase records it: its terms at the moment it is bought. */
export function purchasedPlan(plan: ReturnType<typeof planForSale>): PurchasedPlan {
  return {
    planId: plan.planId,
    planName: plan.name,
    durationInMonths: plan.durationInMonths,
    priceMinor: plan.priceMinor,
    currency: plan.currency,
    isRecurrent: plan.isRecurrent,
  };
}
