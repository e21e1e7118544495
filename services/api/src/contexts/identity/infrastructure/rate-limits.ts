import type { RateLimitRule } from '../../../platform/http';

/**
 * Sign-in attempts per client address and e-mail: enough for typos, far too few to guess a password that passes
 * the password rules. Counted per address and e-mail so one office behind a NAT does not lock everyone out.
 */
export const SIGN_IN_LIMIT: RateLimitRule = { key: 'ip-and-email', limit: 10, windowMs: 60_000 };

/** Calls that send mail (forgot password, resend confirmation) per client address: stops mail bombing. */
export const MAIL_REQUEST_LIMIT: RateLimitRule = { key: 'ip', limit: 10, windowMs: 15 * 60_000 };
