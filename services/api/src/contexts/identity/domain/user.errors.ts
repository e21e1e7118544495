import type { ErrorCode } from '@kupa/proto';

/** The catalogue codes the user decider answers with, named by the rule that says no. */
export const USER_ERRORS = Object.freeze({
  notFound: 'error.user.not.found',
  alreadyExists: 'error.entity.already.exists',
  alreadyActive: 'error.account.already.active',
  blocked: 'error.account.blocked',
  forbidden: 'error.access.forbidden',
  trialAlreadyUsed: 'error.trial.already.used',
  noteNotFound: 'error.entity.not.found',
  twoFactorAlreadyEnabled: 'error.otp.already.enabled',
  twoFactorNotEnabled: 'error.otp.not.enabled',
  stepUpRequired: 'error.otp.step.up.required',
  codeInvalid: 'error.otp.invalid',
  codeReused: 'error.otp.reused',
  viewAsStaffAccount: 'error.view.as.staff.account',
  /** The sign-up's code: one account per address, the account's own included. */
  emailTaken: 'error.login.already.in.use',
  emailTakenMeanwhile: 'error.email.change.address.taken',
} as const satisfies Record<string, ErrorCode>);
