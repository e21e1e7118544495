import { withReadOnlySnapshot } from '../../../platform/database/read-only-snapshot';
import { EventTypeRegistry } from '../../../platform/event-store/event-type-registry';
import { serveWorkerThread } from '../../../platform/threads/worker-thread';
import { registerLedgerEventTypes } from '../ledger-event-types';
import { KeptDifferences } from './differences';
import {
  checkLedgerReadModels,
  type LedgerCheckWorkerRequest,
  type LedgerCheckWorkerResult,
} from './ledger-read-models.check';

/**
 * The ledger's check of `kupa ledger verify` on a thread of its own (see `checkLedgerReadModelsInWorker`). It reads
 * only the ledger's events, so the ledger's own event types are all its registry needs.
 */
serveWorkerThread((request: LedgerCheckWorkerRequest): Promise<LedgerCheckWorkerResult> =>
  withReadOnlySnapshot(request.databaseUrl, 'kupa verify ledger', async (reader) => {
    const eventTypes = new EventTypeRegistry();
    registerLedgerEventTypes(eventTypes);
    const differences = new KeptDifferences(request.differencesKept);
    const { balancesAtCheckpoint, ...counts } = await checkLedgerReadModels(
      reader,
      eventTypes,
      differences,
      request.checkpointPosition,
    );
    return { counts, balancesAtCheckpoint, kept: differences.kept, count: differences.count };
  }),
);
