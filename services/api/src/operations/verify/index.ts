export {
  type LedgerDifference,
  type LedgerVerification,
  LedgerVerifier,
  VERIFY_DIFFERENCES_KEPT,
} from './ledger-verifier';
