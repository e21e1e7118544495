import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { BulkBatch, BulkBatchStartedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { ValidationFailedError } from '../../../../platform/http';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import { BulkSelections } from '../../application/bulk-selections';
import { startBulkBatch } from '../../domain/bulk-batch.decider';
import { bulkBatchRef } from '../../infrastructure/bulk-batch-streams';
import { findBulkBatch, insertBulkBatch } from '../../infrastructure/bulk-batches.store';
import { StartBulkBatchCommand } from './start-bulk-batch.command';

export const START_BULK_BATCH_ROUTE = 'POST /bulk-operations';

/**
 * Freezes the selection's targets and starts the batch: its `BulkBatchStarted`, its row (a due job) and its target
 * rows commit together, and the background runner takes it from there. A repeated `Idempotency-Key` answers the
 * first batch rather than starting a second.
 */
@CommandHandler(StartBulkBatchCommand)
export class StartBulkBatchHandler implements ICommandHandler<StartBulkBatchCommand, BulkBatch> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly selections: BulkSelections,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: StartBulkBatchCommand): Promise<BulkBatch> {
    const { actor, action, selection, reason, publicNote, amountMinor, days, context } = command;
    const missing =
      action === 'GOODWILL_CREDIT' && amountMinor === null
        ? 'amount'
        : action === 'ADD_DAYS' && days === null
          ? 'days'
          : null;
    if (missing) throw new ValidationFailedError([{ field: missing, error: 'error.validation.required' }]);
    const filter = selection.filter;
    const idempotency = this.keys.request(actor.userUuid, command.idempotencyKey, START_BULK_BATCH_ROUTE, {
      action,
      filter,
      reason,
      publicNote,
      amountMinor,
      days,
    });
    // The key remembers the start; the answer is the batch as it is now, its progress included.
    const known = await this.keys.replayIfKnown<BulkBatchStartedData>(idempotency);
    if (known) return this.batch(known.batchId);

    const targets = await this.selections.freeze(action, selection);
    const batchId = randomUUID();
    const started = await this.commands.run(idempotency, {
      context,
      streams: { batch: bulkBatchRef(batchId) },
      decide: (loaded, { at }) => {
        const events = startBulkBatch(
          {
            batchId,
            action,
            filter: { ...filter },
            targetCount: targets.length,
            reason,
            publicNote,
            amountMinor: action === 'GOODWILL_CREDIT' ? amountMinor : null,
            days: action === 'ADD_DAYS' ? days : null,
            actorId: actor.userUuid,
            at,
          },
          loaded.batch.state,
        );
        const startedEvent = events[0];
        assert(startedEvent?.type === 'BulkBatchStarted', 'a new batch starts');
        return { events: { batch: events }, result: startedEvent.data };
      },
      alongside: async (tx, decision) => {
        await insertBulkBatch(tx.manager, decision.result, actor, targets);
      },
    });
    return this.batch(started.batchId);
  }

  private async batch(batchId: string): Promise<BulkBatch> {
    const batch = await findBulkBatch(this.dataSource.manager, batchId);
    assert(batch, `batch ${batchId} is readable once started`);
    return batch;
  }
}
