import {
  DropRedundantPaymentsCreatedIndex1768300000000,
  LedgerQueryIndexes1767225601900,
  PaymentEnumSortIndexes1767225602000,
} from './ledger-queries.migrations';

export { LedgerQueriesModule } from './ledger-queries.module';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ledgerQueryMigrations: Function[] = [
  LedgerQueryIndexes1767225601900,
  PaymentEnumSortIndexes1767225602000,
  DropRedundantPaymentsCreatedIndex1768300000000,
];
