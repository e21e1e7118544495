import { Global, Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CommandBatches } from '../commands/command-batches';
import { CommandPipeline } from '../commands/command-pipeline';
import { Clock } from '../clock';
import { APP_CONFIG, type AppConfig, queuePollIntervalMs } from '../config';
import { Schedules } from '../jobs/schedules';
import { Wakeups } from '../jobs/wakeups';
import { noteCommitInRequest } from '../database/read-replica';
import { Metrics } from '../observability/metrics';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { ProcessorRunner } from '../projections/processor-runner';
import { EventPartitionsSweep } from './event-partitions.sweep';
import { EventStore } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The event store and its registries for every context. The store classes stay free of Nest decorators (tests and
 * the CLI build them by hand), so they are provided through factories. Processors do not start by themselves: the
 * server and the worker start them through `BackgroundWork`; the CLI and tests may `drain()` them instead.
 */
@Global()
@Module({
  providers: [
    { provide: EventTypeRegistry, useFactory: () => new EventTypeRegistry() },
    { provide: Wakeups, useFactory: () => new Wakeups() },
    {
      provide: InlineProjectionRegistry,
      useFactory: (dataSource: DataSource, eventTypes: EventTypeRegistry) =>
        new InlineProjectionRegistry(dataSource, eventTypes),
      inject: [getDataSourceToken(), EventTypeRegistry],
    },
    {
      provide: PostgresEventStore,
      useFactory: (
        dataSource: DataSource,
        projections: InlineProjectionRegistry,
        eventTypes: EventTypeRegistry,
        metrics: Metrics,
        wakeups: Wakeups,
      ) => {
        const logger = new Logger('EventStore');
        return new PostgresEventStore(dataSource, projections, eventTypes, {
          onRetry: (_error, attempt, reason) => {
            metrics.transactionRestarts.inc({ reason });
            logger.warn(`Transaction retried after attempt ${attempt}: ${reason}`);
          },
          onRestart: () => metrics.transactionRestarts.inc({ reason: 'stream_created_meanwhile' }),
          onCommitted: () => {
            wakeups.wake();
            noteCommitInRequest();
          },
        });
      },
      inject: [getDataSourceToken(), InlineProjectionRegistry, EventTypeRegistry, Metrics, Wakeups],
    },
    { provide: EventStore, useExisting: PostgresEventStore },
    {
      provide: ProcessorRunner,
      useFactory: (dataSource: DataSource, store: EventStore, config: AppConfig, wakeups: Wakeups) => {
        const logger = new Logger('Processors');
        return new ProcessorRunner(dataSource, store, {
          pollIntervalMs: queuePollIntervalMs(config),
          onHandled: () => wakeups.wake(),
          onError: (name, error) =>
            logger.error(
              `Processor ${name} failed a batch, retrying: ${error instanceof Error ? error.message : error}`,
            ),
        });
      },
      inject: [getDataSourceToken(), EventStore, APP_CONFIG, Wakeups],
    },
    CommandPipeline,
    {
      provide: CommandBatches,
      useFactory: (store: EventStore, clock: Clock, metrics: Metrics, config: AppConfig) =>
        new CommandBatches(store, clock, metrics, { enabled: config.commandGrouping }),
      inject: [EventStore, Clock, Metrics, APP_CONFIG],
    },
  ],
  exports: [
    EventTypeRegistry,
    Wakeups,
    InlineProjectionRegistry,
    EventStore,
    PostgresEventStore,
    ProcessorRunner,
    CommandPipeline,
    CommandBatches,
  ],
})
export class EventStoreModule implements OnModuleInit {
  constructor(
    @Inject(getDataSourceToken()) private readonly dataSource: DataSource,
    private readonly schedules: Schedules,
  ) {}

  onModuleInit(): void {
    // Idle until the operator partitions `events` (docs/adr/0114-partitioned-events.md); then it keeps partitions ahead.
    this.schedules.register(new EventPartitionsSweep(this.dataSource));
  }
}
