import type { ErrorCode } from './errors';
import { LIMITS } from './limits';

/**
 * The product's validation rules (docs/product.md, Business constants) as data (patterns, limits) and as functions that
 * answer with catalogue codes. The API's DTO decorators and both UIs' forms call these, so a rule changes in one place.
 */
export const PATTERNS = Object.freeze({
  /** Letters, digits and the printable ASCII specials; no spaces. */
  passwordAllowed: /^[A-Za-z0-9!-/:-@[-`{-~]+$/,
  digit: /[0-9]/,
  lowercase: /[a-z]/,
  uppercase: /[A-Z]/,
  special: /[!-/:-@[-`{-~]/,
  subscriptionPassword: /^[\x20-\x7E]{4,}$/,
  subscriptionLogin: /^[a-z0-9._-]{6,64}$/,
  personName: /^[\p{L}'][\p{L}\p{M}'\-., ]*$/u,
  // A pragmatic address check: one @, no spaces, a dot in the domain.
  email: /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/,
  profileId: /^\d{8}$/,
  numeric: /^\d+$/,
});

export interface RuleIssue {
  error: ErrorCode;
  params?: Record<string, string | number>;
}

type Check = (value: string) => RuleIssue | null;

const ok = null;

export const checkRequired: Check = (value) =>
  value === undefined || value === null || String(value).trim() === '' ? { error: 'error.validation.required' } : ok;

export const checkTextLength: Check = (value) =>
  value.length > LIMITS.textMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.textMaxLength } }
    : ok;

export const checkEmail: Check = (value) =>
  PATTERNS.email.test(value) && value.length <= LIMITS.textMaxLength ? ok : { error: 'error.validation.invalid.email' };

export const checkPassword: Check = (value) => {
  const valid =
    value.length >= LIMITS.passwordMinLength &&
    value.length <= LIMITS.passwordMaxLength &&
    PATTERNS.passwordAllowed.test(value) &&
    PATTERNS.digit.test(value) &&
    PATTERNS.lowercase.test(value) &&
    PATTERNS.uppercase.test(value) &&
    PATTERNS.special.test(value);
  return valid ? ok : { error: 'error.validation.password.rules', params: { length: LIMITS.passwordMinLength } };
};

export const checkPersonName: Check = (value) => {
  if (value.trim() === '') return { error: 'error.validation.blank' };
  if (value.length > LIMITS.textMaxLength)
    return { error: 'error.validation.max.length', params: { max: LIMITS.textMaxLength } };
  return PATTERNS.personName.test(value) ? ok : { error: 'error.validation.person.name' };
};

export const checkSubscriptionLogin: Check = (value) =>
  PATTERNS.subscriptionLogin.test(value) ? ok : { error: 'error.validation.subscription.login' };

export const checkSubscriptionPassword: Check = (value) =>
  PATTERNS.subscriptionPassword.test(value) && value.length <= LIMITS.textMaxLength
    ? ok
    : { error: 'error.validation.subscription.password' };

export const checkProfileId: Check = (value) =>
  PATTERNS.profileId.test(value) ? ok : { error: 'error.validation.invalid.format' };

export const checkReferralToken: Check = (value) =>
  PATTERNS.numeric.test(value) && value.length <= LIMITS.profileIdDigits
    ? ok
    : { error: 'error.validation.ref.numeric' };

/** A transfer recipient is an e-mail address or an 8-digit profile ID. */
export const checkRecipient: Check = (value) =>
  PATTERNS.profileId.test(value) || PATTERNS.email.test(value) ? ok : { error: 'error.validation.invalid.recipient' };

export const checkKeyword: Check = (value) =>
  value.length > LIMITS.keywordMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.keywordMaxLength } }
    : ok;

export function checkPasswordConfirmation(password: string, confirmPassword: string): RuleIssue | null {
  return password === confirmPassword ? ok : { error: 'error.validation.passwords.do.not.match' };
}

export function checkNewPasswordDiffers(oldPassword: string, newPassword: string): RuleIssue | null {
  return oldPassword === newPassword ? { error: 'error.validation.password.same.as.old' } : ok;
}

/** Runs checks in order and answers with the first problem. */
export function firstIssue(value: string, ...checks: Check[]): RuleIssue | null {
  for (const check of checks) {
    const issue = check(value);
    if (issue) return issue;
  }
  return ok;
}
