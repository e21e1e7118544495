import { ERROR_CATALOGUE, type ErrorCode, type FieldError } from '@kupa/proto';

/**
 * An HTTP-layer rejection with a catalogue code (for rules checked outside a domain decider, such as a missing
 * record or a rate limit). Domain rules throw `DomainError`; both end up in the same error body.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
    readonly statusOverride?: number,
  ) {
    super(code);
    this.name = 'ApiError';
  }

  get status(): number {
    return this.statusOverride ?? ERROR_CATALOGUE[this.code].status;
  }
}

export class ValidationFailedError extends ApiError {
  constructor(readonly fields: FieldError[]) {
    super('error.validation.failed', { fields }, 400);
    this.name = 'ValidationFailedError';
  }
}
