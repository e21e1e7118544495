import type { PlanStatus } from '@kupa/proto';
import type { PaymentPlanEvent, PaymentPlanTerms } from './plan.events';

export interface ExistingPlan extends PaymentPlanTerms {
  exists: true;
  planId: string;
  status: PlanStatus;
}

/** A plan stream before its creation, after its deletion (`deleted`), or a plan that exists. */
export type PlanState = { exists: false; deleted: boolean } | ExistingPlan;

export function initialPlanState(): PlanState {
  return { exists: false, deleted: false };
}

/** A copy of just the terms, so that a state or an event never shares its feature list with another. */
export function termsOf(terms: PaymentPlanTerms): PaymentPlanTerms {
  return {
    name: terms.name,
    durationInMonths: terms.durationInMonths,
    priceMinor: terms.priceMinor,
    currency: terms.currency,
    isRecurrent: terms.isRecurrent,
    description: terms.description,
    features: [...terms.features],
    cardPaymentAllowed: terms.cardPaymentAllowed,
    nameEn: terms.nameEn,
    descriptionEn: terms.descriptionEn,
  };
}

export function evolvePlan(state: PlanState, event: PaymentPlanEvent): PlanState {
  if (event.type === 'PaymentPlanCreated') {
    return { exists: true, planId: event.data.planId, status: event.data.status, ...termsOf(event.data) };
  }
  // Every other event changes a plan that exists; one on a missing or deleted plan would be corrupt history.
  if (!state.exists) throw new Error(`Event ${event.type} on a plan stream with no live plan`);
  switch (event.type) {
    case 'PaymentPlanUpdated':
      return { ...state, ...termsOf(event.data) };
    case 'PaymentPlanStatusChanged':
      return { ...state, status: event.data.status };
    case 'PaymentPlanDeleted':
      return { exists: false, deleted: true };
  }
}
