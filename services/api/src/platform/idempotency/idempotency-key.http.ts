import { applyDecorators, Headers, HttpCode } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { CREATED_STATUS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency-keys';

/**
 * A money-moving POST (a manual payment, a transfer, a purchase from the balance): it answers 201, the only status
 * `IdempotencyKeys` remembers, and documents the optional `Idempotency-Key` header that `IdempotencyKeyHeader` reads.
 */
export const AcceptsIdempotencyKey = (): MethodDecorator =>
  applyDecorators(
    HttpCode(CREATED_STATUS),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
      description:
        'A repeat with the same body answers the first response and moves no money (docs/api.md, Idempotency)',
    }),
  );

/** The raw `Idempotency-Key` header; `parseIdempotencyKey` checks it. */
export const IdempotencyKeyHeader = (): ParameterDecorator => Headers(IDEMPOTENCY_KEY_HEADER);
