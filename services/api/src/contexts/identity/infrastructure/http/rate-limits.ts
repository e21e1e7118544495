import type { ErrorCode } from '@kupa/proto';
import type { RateLimitRules } from '../../../../platform/http';

/**
 * What counts as a failed sign-in: a wrong password, or a wrong, stale or reused one-time code after a right password
 * (docs/adr/0018-staff-two-factor-sign-in.md), so that codes cannot be guessed faster than passwords.
 */
const SIGN_IN_FAILURES: readonly ErrorCode[] = ['error.auth.bad.credentials', 'error.otp.invalid'];

/**
 * Failed sign-ins, counted three ways (docs/adr/0015-session-versions-and-sign-in-limits.md,
 * docs/adr/0057-shared-rate-limits-and-no-sign-in-lock-out.md): per address and account (typos of one person) and
 * per address (one machine trying many accounts) refuse once full; per account across addresses (many machines trying
 * one account) slows down instead of locking: once full, only addresses that already failed for the account wait,
 * until their own window ends, while the owner still signs in at once from an address that has not failed. Only wrong
 * passwords and wrong one-time codes count; a successful sign-in, a refused status, a request for the code or a
 * malformed body gives its place back.
 */
export const SIGN_IN_LIMITS: RateLimitRules = ({ rateLimits }) => [
  {
    name: 'failures-per-account-and-address',
    key: 'ip-and-email',
    ...rateLimits.signInFailuresPerAccountAndAddress,
    countsOnly: SIGN_IN_FAILURES,
  },
  {
    name: 'failures-per-address',
    key: 'ip',
    ...rateLimits.signInFailuresPerAddress,
    countsOnly: SIGN_IN_FAILURES,
  },
  {
    name: 'failures-per-account',
    key: 'email',
    ...rateLimits.signInFailuresPerAccount,
    countsOnly: SIGN_IN_FAILURES,
    refusesOnlyAfter: 'failures-per-account-and-address',
  },
];

/** Every sign-up request per client address: stops mass account creation and the confirmation mails it sends. */
export const SIGN_UP_LIMITS: RateLimitRules = ({ rateLimits }) => [
  { name: 'per-address', key: 'ip', ...rateLimits.signUpsPerAddress },
];

/** Calls that send mail (forgot password, resend confirmation) per client address: stops mail bombing. */
export const MAIL_REQUEST_LIMITS: RateLimitRules = ({ rateLimits }) => [
  { name: 'per-address', key: 'ip', ...rateLimits.mailRequestsPerAddress },
];

/**
 * Asking for a change of e-mail sends two mails, one to an address the caller names (docs/adr/0100-change-of-e-mail.md):
 * the mail requests' allowance, counted per signed-in account, so that one account cannot mail-bomb a stranger.
 */
export const EMAIL_CHANGE_LIMITS: RateLimitRules = ({ rateLimits }) => [
  { name: 'per-account', key: 'account', ...rateLimits.mailRequestsPerAddress },
];
