import type { ErrorCode } from '@kupa/proto';

/** The catalogue codes the plan decider answers with, named by the rule that says no. */
export const PLAN_ERRORS = Object.freeze({
  notFound: 'error.payment.plan.not.found',
  notActive: 'error.payment.plan.not.active',
  alreadyExists: 'error.payment.plan.already.exists',
  cannotBeDeleted: 'error.payment.plan.cannot.be.deleted',
  cannotBeModified: 'error.payment.plan.cannot.be.modified',
} as const satisfies Record<string, ErrorCode>);
