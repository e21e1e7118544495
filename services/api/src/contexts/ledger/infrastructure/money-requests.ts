import { applyDecorators, Headers, HttpCode } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { parseAmountToMinor } from '@kupa/proto';
import { assert } from '../../../kernel';
import {
  CREATED_STATUS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  parseIdempotencyKey,
} from './idempotency-keys';

/**
 * A money-moving POST (a manual payment, a transfer): it answers 201, the only status `IdempotencyKeys` remembers,
 * and documents the optional `Idempotency-Key` header that `IdempotencyKeyHeader` reads.
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

/** The raw `Idempotency-Key` header; `moneyRequestInputs` checks it. */
export const IdempotencyKeyHeader = (): ParameterDecorator => Headers(IDEMPOTENCY_KEY_HEADER);

/**
 * The checked idempotency key and the amount in cents of a money-moving POST. The key is checked here, in the
 * controller, rather than in a pipe, so that a body the validation pipe refuses answers its field errors first.
 */
export function moneyRequestInputs(
  idempotencyKeyHeader: string | undefined,
  amount: number,
): { idempotencyKey: string | null; amountMinor: number } {
  const idempotencyKey = parseIdempotencyKey(idempotencyKeyHeader);
  const parsed = parseAmountToMinor(amount);
  assert(parsed.ok, 'the DTO accepted only valid amounts');
  return { idempotencyKey, amountMinor: parsed.amountMinor };
}
