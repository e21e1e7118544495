export { AcceptsIdempotencyKey, IdempotencyKeyHeader } from './idempotency-key.http';
export { IdempotencyKeys, type IdempotentRequest, parseIdempotencyKey } from './idempotency-keys';
export { createIdempotencyKeysTable, dropIdempotencyKeysTable } from './idempotency-keys.schema';
export { IdempotentCommands } from './idempotent-commands';
export { IdempotencyModule } from './idempotency.module';
