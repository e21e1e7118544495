import { withReadOnlySnapshot } from '../database/read-only-snapshot';
import { serveWorkerThread } from '../threads/worker-thread';
import { type HashChainWorkerRequest, verifyWithin } from './hash-chain-verifier';

/** The hash chain check of `kupa ledger verify` on a thread of its own (see `verifyStreamHashes`). */
serveWorkerThread((request: HashChainWorkerRequest) =>
  withReadOnlySnapshot(request.databaseUrl, 'kupa verify hash chains', (reader) =>
    verifyWithin(reader, request.checkpointPosition),
  ),
);
