import { LIMITS } from '@kupa/proto';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';

/**
 * The cryptography of two-factor sign-in (docs/adr/0018-staff-two-factor-sign-in.md): TOTP codes (RFC 6238 through
 * otplib) and the recovery codes; the authenticator secret is sealed at rest by the platform's `SecretBox`. No I/O and no clock of its own:
 * every check is told the instant it runs at.
 */

const ISSUER = 'Kupa';

export function newTotpSecret(): string {
  // 20 random bytes (160 bits), the size RFC 4226 recommends for HMAC-SHA1.
  return generateSecret({ length: 20 });
}

export function otpauthUri(email: string, secret: string): string {
  return generateURI({
    issuer: ISSUER,
    label: email,
    secret,
    digits: LIMITS.totpDigits,
    period: LIMITS.totpPeriodSeconds,
  });
}

/**
 * The time-step a code belongs to, when it is the secret's code for a step around `at` (one step either way) that
 * comes after `afterStep`; otherwise null. Refusing steps at or before the last accepted one is the replay protection:
 * a code seen once (on screen, in a proxy log) cannot open a second session.
 */
export function matchTotp(secret: string, code: string, at: Date, afterStep: number | null): number | null {
  if (!new RegExp(`^\\d{${LIMITS.totpDigits}}$`).test(code)) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: LIMITS.totpPeriodSeconds,
    digits: LIMITS.totpDigits,
    epochTolerance: LIMITS.totpPeriodSeconds * LIMITS.totpToleranceSteps,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Spaces and dashes are how people copy codes; neither carries meaning. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** Letters and digits that cannot be mistaken for each other when copied from paper (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUPS = 4;
const RECOVERY_GROUP_LENGTH = 4;

/**
 * A recovery code: 16 characters from a 31-letter alphabet, about 79 bits of randomness, shown as `abcd-efgh-…`.
 * That much entropy is what lets one salted SHA-256 stand in for a slow password hash (see the ADR).
 */
export function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let group = 0; group < RECOVERY_GROUPS; group++) {
    let text = '';
    for (let index = 0; index < RECOVERY_GROUP_LENGTH; index++)
      text += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

export function looksLikeRecoveryCode(code: string): boolean {
  return new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_GROUPS * RECOVERY_GROUP_LENGTH}}$`).test(normalizeCode(code));
}

export interface HashedRecoveryCode {
  salt: string;
  hash: string;
}

export function hashRecoveryCode(code: string, salt: string = randomBytes(16).toString('hex')): HashedRecoveryCode {
  const hash = createHash('sha256').update(salt, 'utf8').update(normalizeCode(code), 'utf8').digest('hex');
  return { salt, hash };
}

export function recoveryCodeMatches(code: string, stored: HashedRecoveryCode): boolean {
  const candidate = Buffer.from(hashRecoveryCode(code, stored.salt).hash, 'hex');
  const expected = Buffer.from(stored.hash, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
