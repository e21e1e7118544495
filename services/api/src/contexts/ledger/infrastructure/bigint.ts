import { assert } from '../../../kernel';

/** PostgreSQL hands bigint back as a string; ledger amounts and ids always fit a safe JS integer. */
export function bigintToNumber(value: string | number): number {
  const number = Number(value);
  assert(Number.isSafeInteger(number), `bigint ${value} must fit a safe integer`);
  return number;
}
