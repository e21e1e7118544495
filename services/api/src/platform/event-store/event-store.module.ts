import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { ProcessorRunner } from '../projections/processor-runner';
import { EventStore } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';

/** Stops the processor loops (releasing their advisory locks) when the application shuts down. */
@Injectable()
export class ProcessorRunnerShutdown implements OnApplicationShutdown {
  constructor(@Inject(ProcessorRunner) private readonly runner: ProcessorRunner) {}

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}

/**
 * The event store and its registries for every context. The store classes stay free of Nest decorators (tests and
 * the CLI build them by hand), so they are provided through factories. Processors do not start by themselves: the
 * server calls `ProcessorRunner.start()` once the application has booted; the CLI and tests use `drain()`.
 */
@Global()
@Module({
  providers: [
    { provide: EventTypeRegistry, useFactory: () => new EventTypeRegistry() },
    {
      provide: InlineProjectionRegistry,
      useFactory: (dataSource: DataSource, eventTypes: EventTypeRegistry) =>
        new InlineProjectionRegistry(dataSource, eventTypes),
      inject: [getDataSourceToken(), EventTypeRegistry],
    },
    {
      provide: PostgresEventStore,
      useFactory: (dataSource: DataSource, projections: InlineProjectionRegistry, eventTypes: EventTypeRegistry) =>
        new PostgresEventStore(dataSource, projections, eventTypes),
      inject: [getDataSourceToken(), InlineProjectionRegistry, EventTypeRegistry],
    },
    { provide: EventStore, useExisting: PostgresEventStore },
    {
      provide: ProcessorRunner,
      useFactory: (dataSource: DataSource, store: EventStore) => new ProcessorRunner(dataSource, store),
      inject: [getDataSourceToken(), EventStore],
    },
    ProcessorRunnerShutdown,
  ],
  exports: [EventTypeRegistry, InlineProjectionRegistry, EventStore, PostgresEventStore, ProcessorRunner],
})
export class EventStoreModule {}
