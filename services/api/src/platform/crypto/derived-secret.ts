import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A secret for one purpose, derived from the installation's root secret: stable across restarts and across replicas
 * that share the root, different for every purpose, and telling nothing about the root. The sandboxes' keys and
 * link keys are made this way, so they need no configuration of their own.
 */
export function derivedSecret(rootSecret: string, purpose: string): string {
  return createHmac('sha256', rootSecret).update(purpose).digest('hex');
}

/** A link's key for `subject` (an invoice or checkout id): whoever holds the link may use it; nobody can guess it. */
export function linkSignature(rootSecret: string, purpose: string, subject: string): string {
  return createHmac('sha256', derivedSecret(rootSecret, purpose)).update(subject).digest('base64url');
}

/**
 * Whether `given` is `expected`, compared in constant time (over digests, so that lengths tell nothing either): a key
 * or a link's signature cannot be guessed a character at a time. Anything but a string is not the text.
 */
export function sameText(given: unknown, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expected));
}
