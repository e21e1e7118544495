import { LedgerSchema1767225600300, LedgerUserBalancesView1767400000300 } from './infrastructure/ledger.migrations';
import { ledgerQueryMigrations } from './queries';
import {
  AccountBalanceRow,
  IdempotencyKeyRow,
  LedgerEntryRow,
  PaymentRow,
  WalletSnapshotRow,
} from './infrastructure/ledger.entities';

export { LedgerModule } from './ledger.module';
export { LedgerVerifier, type LedgerDifference, type LedgerVerification } from './queries';
export {
  type LedgerProblem,
  type LedgerReplay,
  type ReplayableEvent,
  type ReplayedEntry,
  type ReplayedPayment,
  replayLedger,
} from './domain/replay-ledger';
export type { WalletState } from './domain/wallet.state';
export type { PaymentState } from './domain/payment.state';
export { ALL_LEDGER_EVENT_TYPES } from './domain/ledger.events';
export { LEDGER_ENTRIES_PROJECTION_NAME } from './projections/ledger-entries/ledger-entries.projection';
export { PAYMENTS_PROJECTION_NAME } from './projections/payments/payments.projection';
export { WALLET_SNAPSHOTS_PROJECTION_NAME } from './projections/wallet-snapshots/wallet-snapshots.projection';
export { PaymentReader } from './projections/payments/payment-reader';
export { AccountBalanceRow, IdempotencyKeyRow, LedgerEntryRow, PaymentRow, WalletSnapshotRow };

/** The ledger's inline projections, in the order they run. */
export const LEDGER_PROJECTION_NAMES = Object.freeze(['payments', 'ledger-entries', 'wallet-snapshots'] as const);

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ledgerEntities: Function[] = [
  PaymentRow,
  LedgerEntryRow,
  AccountBalanceRow,
  WalletSnapshotRow,
  IdempotencyKeyRow,
];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ledgerMigrations: Function[] = [
  LedgerSchema1767225600300,
  ...ledgerQueryMigrations,
  LedgerUserBalancesView1767400000300,
];
