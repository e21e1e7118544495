import { type BulkEventDataByType, type BulkEventType, minorToAmount } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import { keptOutOfTheLog } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * How a bulk batch reads in the activity log (docs/adr/0090-bulk-operations.md): the batch is its own target, named
 * by its reason; its start says who did what to how many ("+2 days to 1,234 subscriptions"), its end how many were
 * done and failed. Each target's outcome is kept out: the target's own event (its extension, status change or
 * goodwill payment) is already an entry under that target, carrying the batch's id as its correlation id, so a
 * second row per target would only repeat it ten thousand times. A failed target has no event of its own; the batch's
 * failed count and its results CSV name them.
 */
export const BULK_AUDIT_MAPPERS: Readonly<Record<BulkEventType, AuditMapper>> = Object.freeze({
  BulkBatchStarted: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as BulkEventDataByType['BulkBatchStarted'];
    return {
      targetType: 'BULK_BATCH',
      targetId: data.batchId,
      parent: null,
      operationType: 'CREATED',
      fields: {
        reason: data.reason,
        operation: {
          action: data.action,
          targetKind: data.targetKind,
          targetCount: data.targetCount,
          days: data.days,
          amount: data.amountMinor === null ? null : minorToAmount(data.amountMinor),
        },
        publicNote: data.publicNote,
      },
    };
  },
  BulkTargetDone: keptOutOfTheLog,
  BulkTargetFailed: keptOutOfTheLog,
  BulkBatchCompleted: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as BulkEventDataByType['BulkBatchCompleted'];
    return {
      targetType: 'BULK_BATCH',
      targetId: data.batchId,
      parent: null,
      operationType: 'UPDATED',
      fields: { doneCount: data.doneCount, failedCount: data.failedCount },
    };
  },
});
