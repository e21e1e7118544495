export { AcceptsIdempotencyKey, IdempotencyKeyHeader } from './idempotency-key.http';
export {
  CREATED_STATUS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IdempotencyKeys,
  type IdempotentRequest,
  IdempotentReplay,
  parseIdempotencyKey,
} from './idempotency-keys';
export { createIdempotencyKeysTable, dropIdempotencyKeysTable } from './idempotency-keys.schema';
export { IdempotentCommands } from './idempotent-commands';
export { IdempotencyModule } from './idempotency.module';
