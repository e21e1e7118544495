import { Global, Module } from '@nestjs/common';
import { IdempotencyKeys } from './idempotency-keys';
import { IdempotentCommands } from './idempotent-commands';

/** `Idempotency-Key` on money-moving POSTs, for every context that runs such a command (ADR 0006, ADR 0069). */
@Global()
@Module({
  providers: [IdempotencyKeys, IdempotentCommands],
  exports: [IdempotencyKeys, IdempotentCommands],
})
export class IdempotencyModule {}
