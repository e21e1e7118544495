import { parseAmountToMinor } from '@kupa/proto';
import { assert } from '../../../kernel';
import { parseIdempotencyKey } from '../../../platform/idempotency';

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
