import type { ErrorCode } from '@kupa/proto';

/**
 * A rule said no. Carries a catalogue code, so the HTTP layer answers with the catalogue status and message.
 * Bugs are not DomainErrors: they are assertions (`assert`), and surface as 500s.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

/** A broken invariant is a bug in our code, never a user's mistake: it fails loudly instead of answering a code. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
}
