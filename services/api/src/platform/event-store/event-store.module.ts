import { Global, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CommandPipeline } from '../commands/command-pipeline';
import { APP_CONFIG, type AppConfig } from '../config';
import { Metrics } from '../observability/metrics';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { ProcessorRunner } from '../projections/processor-runner';
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
      ) => {
        const logger = new Logger('EventStore');
        return new PostgresEventStore(dataSource, projections, eventTypes, {
          onRetry: (_error, attempt, reason) => {
            metrics.transactionRestarts.inc({ reason });
            logger.warn(`Transaction retried after attempt ${attempt}: ${reason}`);
          },
          onRestart: () => metrics.transactionRestarts.inc({ reason: 'stream_created_meanwhile' }),
        });
      },
      inject: [getDataSourceToken(), InlineProjectionRegistry, EventTypeRegistry, Metrics],
    },
    { provide: EventStore, useExisting: PostgresEventStore },
    {
      provide: ProcessorRunner,
      useFactory: (dataSource: DataSource, store: EventStore, config: AppConfig) => {
        const logger = new Logger('Processors');
        return new ProcessorRunner(dataSource, store, {
          pollIntervalMs: config.workerPollIntervalMs,
          onError: (name, error) =>
            logger.error(
              `Processor ${name} failed a batch, retrying: ${error instanceof Error ? error.message : error}`,
            ),
        });
      },
      inject: [getDataSourceToken(), EventStore, APP_CONFIG],
    },
    CommandPipeline,
  ],
  exports: [
    EventTypeRegistry,
    InlineProjectionRegistry,
    EventStore,
    PostgresEventStore,
    ProcessorRunner,
    CommandPipeline,
  ],
})
export class EventStoreModule {}
