import type { RateLimitRules } from '../../../platform/http';

/**
 * Failed sign-ins, counted three ways (docs/adr/0015-session-versions-and-sign-in-limits.md): per address and
 * account (typos of one person), per address (one machine trying many accounts) and per account across addresses
 * (many machines trying one account). Only wrong passwords count; a successful sign-in, a refused status or a
 * malformed body gives its place back.
 */
export const SIGN_IN_LIMITS: RateLimitRules = ({ rateLimits }) => [
  {
    name: 'failures-per-account-and-address',
    key: 'ip-and-email',
    ...rateLimits.signInFailuresPerAccountAndAddress,
    countsOnly: 'error.auth.bad.credentials',
  },
  {
    name: 'failures-per-address',
    key: 'ip',
    ...rateLimits.signInFailuresPerAddress,
    countsOnly: 'error.auth.bad.credentials',
  },
  {
    name: 'failures-per-account',
    key: 'email',
    ...rateLimits.signInFailuresPerAccount,
    countsOnly: 'error.auth.bad.credentials',
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
