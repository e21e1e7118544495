import type { ErrorCode } from '@kupa/proto';

/** The catalogue codes the subscription decider answers with, named by the rule that says no. */
export const SUBSCRIPTION_ERRORS = Object.freeze({
  notFound: 'error.subscription.not.found',
  alreadyRenewed: 'error.subscription.already.renewed',
  notRenewable: 'error.subscription.not.renewable',
  ended: 'error.subscription.ended',
  notCancelled: 'error.subscription.not.cancelled',
  notExtendable: 'error.subscription.not.extendable',
  resumeTooLate: 'error.subscription.resume.too.late',
  inGrace: 'error.subscription.in.grace',
  trialCannotBeCancelled: 'error.trial.cannot.be.cancelled',
  trialLoginCannotBeChanged: 'error.trial.login.cannot.be.changed',
  invalidLogin: 'error.validation.subscription.login',
  invalidPassword: 'error.validation.subscription.password',
  fundingNotRecurrent: 'error.subscription.funding.not.recurrent',
  cardNotSaved: 'error.card.not.saved',
} as const satisfies Record<string, ErrorCode>);
