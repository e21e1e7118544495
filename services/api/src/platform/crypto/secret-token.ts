import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the only form in which a token ever leaves the server. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the token. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
