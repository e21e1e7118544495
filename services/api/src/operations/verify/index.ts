export {
  type LedgerDifference,
  type LedgerVerification,
  LedgerVerifier,
  VERIFY_DIFFERENCES_KEPT,
} from './ledger-verifier';
export { SinceCheckpointVerifier, type SinceCheckpointVerification } from './since-checkpoint-verifier';
export { LedgerVerifyCheckpoints1771100011100 } from './verify-checkpoints.migration';
export { LedgerVerifyStateBuckets1772200012200 } from './verify-state-buckets.migration';
