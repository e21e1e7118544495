import { checkPlanTerms, type PlanStatus } from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';
import { PLAN_ERRORS } from './plan.errors';
import type { PaymentPlanEvent, PaymentPlanTerms } from './plan.events';
import { evolvePlan, type ExistingPlan, initialPlanState, type PlanState, termsOf } from './plan.state';

/**
 * The plan stream's decisions (docs/product.md, Catalog): one pure function per command, each from the command and
 * the folded state to the events it appends (or a `DomainError`). Time arrives inside the command as `at`. Facts the
 * stream cannot know — whether a subscription refers to the plan, whether another plan has the name — arrive inside
 * the command too; the handler reads them under the plan's lock (docs/adr/0021-catalog-plan-references.md).
 */

/** How a plan stream's state follows from its events: what the command pipeline folds. */
export const planEvolution: Evolution<PlanState, PaymentPlanEvent> = {
  evolve: evolvePlan,
  initialState: initialPlanState,
};

function existing(state: PlanState): ExistingPlan {
  if (!state.exists) throw new DomainError(PLAN_ERRORS.notFound);
  return state;
}

/** The terms' rules live once in proto; the decider holds every plan to them, however its terms arrived. */
function assertValidTerms(terms: PaymentPlanTerms): void {
  const issue = checkPlanTerms(terms);
  if (issue) throw new DomainError(issue.error, { field: issue.field, ...issue.params });
}

function sameTerms(plan: PaymentPlanTerms, terms: PaymentPlanTerms): boolean {
  return (
    plan.name === terms.name &&
    plan.durationInMonths === terms.durationInMonths &&
    plan.priceMinor === terms.priceMinor &&
    plan.currency === terms.currency &&
    plan.isRecurrent === terms.isRecurrent &&
    plan.description === terms.description &&
    plan.cardPaymentAllowed === terms.cardPaymentAllowed &&
    plan.nameEn === terms.nameEn &&
    plan.descriptionEn === terms.descriptionEn &&
    plan.features.length === terms.features.length &&
    plan.features.every((feature, index) => feature === terms.features[index])
  );
}

export function createPlan(
  command: { planId: string; terms: PaymentPlanTerms; status: PlanStatus; nameTaken: boolean; at: Date },
  state: PlanState,
): PaymentPlanEvent[] {
  if (state.exists || state.deleted) throw new DomainError(PLAN_ERRORS.alreadyExists);
  assertValidTerms(command.terms);
  if (command.nameTaken) throw new DomainError(PLAN_ERRORS.alreadyExists, { field: 'name' });
  return [
    {
      type: 'PaymentPlanCreated',
      data: {
        planId: command.planId,
        ...termsOf(command.terms),
        status: command.status,
        createdAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Sets every term and the status. Clients have bought a referenced plan at its price and for its duration, so those
 * two never change on it (staff create a new plan instead); its name, description, features and status may.
 * Values the plan already has record nothing.
 */
export function updatePlan(
  command: { terms: PaymentPlanTerms; status: PlanStatus; referenced: boolean; nameTaken: boolean },
  state: PlanState,
): PaymentPlanEvent[] {
  const plan = existing(state);
  assertValidTerms(command.terms);
  const repriced =
    plan.priceMinor !== command.terms.priceMinor || plan.durationInMonths !== command.terms.durationInMonths;
  if (command.referenced && repriced) throw new DomainError(PLAN_ERRORS.cannotBeModified);
  if (command.nameTaken) throw new DomainError(PLAN_ERRORS.alreadyExists, { field: 'name' });
  const events: PaymentPlanEvent[] = [];
  if (!sameTerms(plan, command.terms)) {
    events.push({ type: 'PaymentPlanUpdated', data: { planId: plan.planId, ...termsOf(command.terms) } });
  }
  events.push(...changePlanStatus({ status: command.status }, plan));
  return events;
}

/** Deactivating is how staff take a plan out of sale, referenced or not; the same status again records nothing. */
export function changePlanStatus(command: { status: PlanStatus }, state: PlanState): PaymentPlanEvent[] {
  const plan = existing(state);
  if (plan.status === command.status) return [];
  return [
    {
      type: 'PaymentPlanStatusChanged',
      data: { planId: plan.planId, previousStatus: plan.status, status: command.status },
    },
  ];
}

/** A plan any subscription refers to stays: its subscriptions name it for as long as they exist. */
export function deletePlan(command: { referenced: boolean; at: Date }, state: PlanState): PaymentPlanEvent[] {
  const plan = existing(state);
  if (command.referenced) throw new DomainError(PLAN_ERRORS.cannotBeDeleted);
  return [{ type: 'PaymentPlanDeleted', data: { planId: plan.planId, deletedAt: command.at.toISOString() } }];
}

/**
 * The package as a purchase takes it, read under the package's stream lock (the subscriptions context names that
 * stream in the purchase): only an ACTIVE package is for sale; a deleted or missing one is not found.
 */
export function planForSale(state: PlanState): PaymentPlanTerms & { planId: string } {
  const plan = existing(state);
  if (plan.status !== 'ACTIVE') throw new DomainError(PLAN_ERRORS.notActive);
  return { planId: plan.planId, ...termsOf(plan) };
}
