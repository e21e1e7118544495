import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ReadSource } from './read-replica';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor';

/**
 * The read replica (docs/adr/0113-read-replicas.md): `ReadSource`, which the heavy reads of every context ask for
 * their database, and the interceptor that keeps each writer's own reads on the primary until the replica caught up.
 */
@Global()
@Module({
  providers: [ReadSource, { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor }],
  exports: [ReadSource],
})
export class ReadReplicaModule {}
