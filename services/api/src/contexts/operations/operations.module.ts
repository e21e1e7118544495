import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock';
import { CommandPipeline } from '../../platform/commands';
import { APP_CONFIG, type AppConfig, queuePollIntervalMs } from '../../platform/config';
import { EventTypeRegistry } from '../../platform/event-store';
import { BackgroundLoops } from '../../platform/workers';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { BulkBatchRunner } from './application/bulk-batch-runner';
import { BulkSelections } from './application/bulk-selections';
import { BulkTargetActions } from './application/bulk-target-actions';
import { StartBulkBatchController } from './commands/start-bulk-batch/start-bulk-batch.controller';
import { StartBulkBatchHandler } from './commands/start-bulk-batch/start-bulk-batch.handler';
import { ALL_BULK_EVENT_TYPES } from './domain/bulk-batch.decider';
import { BULK_AUDIT_MAPPERS } from './operations.audit';
import { ListBulkBatchesController } from './queries/list-bulk-batches/list-bulk-batches.controller';

/** Chunks of this many targets: a goodwill chunk takes a second or so, and each renews the batch's lease. */
const CHUNK_SIZE = 50;
/**
 * Targets of a chunk acted on at once: four commands in flight use four of the pool's connections and leave the rest
 * to requests, while a batch of 10,000 takes about a quarter of the time one at a time took (docs/benchmarks.md).
 */
const TARGETS_AT_ONCE = 4;
/** Long enough for the slowest chunk; a runner killed mid-batch hands the batch on after it. */
const BATCH_LEASE_MS = 2 * 60_000;
/** The breath a batch takes after each chunk, so requests queue behind at most one chunk's commands. */
const PAUSE_BETWEEN_CHUNKS_MS = 20;

/**
 * Bulk operations (docs/adr/0090-bulk-operations.md): one action over many clients as one auditable batch, run in the
 * background, resumable after a crash. It acts only through the other contexts' doors.
 */
@Module({
  controllers: [StartBulkBatchController, ListBulkBatchesController],
  providers: [
    BulkSelections,
    BulkTargetActions,
    StartBulkBatchHandler,
    {
      provide: BulkBatchRunner,
      useFactory: (
        dataSource: DataSource,
        pipeline: CommandPipeline,
        actions: BulkTargetActions,
        clock: Clock,
        config: AppConfig,
      ) => {
        const logger = new Logger('BulkBatches');
        return new BulkBatchRunner(dataSource, pipeline, actions, clock, {
          pollIntervalMs: queuePollIntervalMs(config),
          chunkSize: CHUNK_SIZE,
          targetsAtOnce: TARGETS_AT_ONCE,
          pauseBetweenChunksMs: PAUSE_BETWEEN_CHUNKS_MS,
          leaseMs: BATCH_LEASE_MS,
          onError: (error) =>
            logger.warn(`Bulk batch not finished: ${error instanceof Error ? error.message : String(error)}`),
        });
      },
      inject: [DataSource, CommandPipeline, BulkTargetActions, Clock, APP_CONFIG],
    },
  ],
  exports: [BulkBatchRunner],
})
export class OperationsModule implements OnModuleInit {
  constructor(
    private readonly eventTypes: EventTypeRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    private readonly loops: BackgroundLoops,
    private readonly runner: BulkBatchRunner,
  ) {}

  onModuleInit(): void {
    for (const type of ALL_BULK_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, BULK_AUDIT_MAPPERS[type]);
    }
    // A batch is named by the reason it was started with, which no later event changes.
    this.auditNames.registerRecordedName('BULK_BATCH', 'reason');
    this.loops.register(this.runner);
  }
}
