import { type BulkAction, bulkBatchStreamId, type BulkEvent } from '@kupa/proto';
import type { LoadedStream, StreamLoader, StreamRef } from '../../../platform/commands';
import type { BulkBatchState, TargetOutcome } from '../domain/bulk-batch.decider';

interface BatchRow {
  action: BulkAction;
  target_count: number;
  done_count: number;
  failed_count: number;
  status: 'RUNNING' | 'COMPLETED';
}

/**
 * A batch's stream, `bulk-batch-{uuid}`, named with the targets a command settles. Its state is read from the
 * batch's rows, written with its events in the same transactions and under the stream's lock, so they say what a fold
 * would: the counts, and the outcome of the named targets only. Folding ten thousand events for every chunk would
 * make a batch quadratic.
 */
export function bulkBatchRef(
  batchId: string,
  targetIds: readonly string[] = [],
): StreamRef<BulkBatchState | null, BulkEvent> {
  const loader: StreamLoader<BulkBatchState | null> = {
    async load(tx, streamIds) {
      const loaded = new Map<string, LoadedStream<BulkBatchState | null>>();
      for (const streamId of streamIds) {
        const version = await tx.streamVersion(streamId);
        const rows: BatchRow[] = await tx.manager.query(
          'SELECT action, target_count, done_count, failed_count, status FROM bulk_batches WHERE id = $1',
          [batchId],
        );
        const row = rows[0];
        if (version === 0 || !row) {
          loaded.set(streamId, { streamId, version, state: null });
          continue;
        }
        const settled: Array<{ target_id: string; outcome: TargetOutcome }> =
          targetIds.length === 0
            ? []
            : await tx.manager.query(
                `SELECT target_id, outcome FROM bulk_batch_targets
                  WHERE batch_id = $1 AND target_id = ANY($2::text[]) AND outcome IS NOT NULL`,
                [batchId, targetIds],
              );
        const state: BulkBatchState = {
          batchId,
          action: row.action,
          targetCount: row.target_count,
          settledCount: row.done_count + row.failed_count,
          failedCount: row.failed_count,
          outcomes: new Map(settled.map((target) => [target.target_id, target.outcome])),
          completed: row.status === 'COMPLETED',
        };
        loaded.set(streamId, { streamId, version, state });
      }
      return loaded;
    },
  };
  return { streamId: bulkBatchStreamId(batchId), loader };
}
