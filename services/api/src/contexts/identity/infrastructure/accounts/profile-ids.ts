import { LIMITS } from '@kupa/proto';
import { randomInt } from 'node:crypto';

/** How many fresh profile IDs a creation tries before giving up (a collision among 10^8 is rare; five is plenty). */
export const PROFILE_ID_ATTEMPTS = 5;

export function randomProfileId(): string {
  return String(randomInt(0, 10 ** LIMITS.profileIdDigits)).padStart(LIMITS.profileIdDigits, '0');
}
