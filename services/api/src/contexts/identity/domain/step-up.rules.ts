import type { ErrorCode } from '@kupa/proto';
import { USER_ERRORS } from './user.errors';

/**
 * Step-up (docs/adr/0098-client-two-factor-and-step-up.md): with two-factor sign-in on, a call that moves the balance
 * or changes how the account signs in needs a code of its own, not just the session. What the code turned out to be:
 * none sent, a fresh authenticator code or unused recovery code (now spent), one already spent, or a wrong one.
 */
export type StepUpCheck = 'NONE' | 'FRESH' | 'REUSED' | 'WRONG';

/**
 * Why the call is refused, or null when it may go on. An account without two-factor sign-in is asked for nothing and
 * a code it sends is not looked at, so the same request body works before and after enrolment.
 */
export function stepUpRefusal(twoFactorEnabled: boolean, check: StepUpCheck): ErrorCode | null {
  if (!twoFactorEnabled) return null;
  switch (check) {
    case 'FRESH':
      return null;
    case 'NONE':
      return USER_ERRORS.stepUpRequired;
    case 'REUSED':
      return USER_ERRORS.codeReused;
    case 'WRONG':
      return USER_ERRORS.codeInvalid;
  }
}

/**
 * A TOTP code's verdict from the time-step it belongs to (null: no step near now) and the last step the account
 * accepted. A step at or before the last accepted one is a replay: the code, or an older one, was seen already.
 */
export function totpCheck(matchedStep: number | null, lastUsedStep: number | null): StepUpCheck {
  if (matchedStep === null) return 'WRONG';
  if (lastUsedStep !== null && matchedStep <= lastUsedStep) return 'REUSED';
  return 'FRESH';
}

/** A recovery code's verdict: unknown, spent before, or still unused (the caller spends it). */
export function recoveryCodeCheck(found: { usedAt: Date | null } | null): StepUpCheck {
  if (found === null) return 'WRONG';
  return found.usedAt === null ? 'FRESH' : 'REUSED';
}
