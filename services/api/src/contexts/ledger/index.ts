import {
  CashierPaymentFields1767900000300,
  LedgerSchema1767225600300,
  LedgerUserBalancesView1767400000300,
  PaymentBonusLinks1767800000300,
  PaymentPublicFields1767600000300,
} from './infrastructure/ledger.migrations';
import { ledgerQueryMigrations } from './queries';

export { LedgerModule } from './ledger.module';
export { ledgerMoneyFigures, type MoneyInPeriod } from './queries/money-figures/money-figures';
export {
  checkLedgerReadModels,
  type DifferenceSink,
  type DifferenceSource,
  type LedgerDifference,
} from './verification/ledger-read-models.check';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ledgerMigrations: Function[] = [
  LedgerSchema1767225600300,
  ...ledgerQueryMigrations,
  LedgerUserBalancesView1767400000300,
  PaymentPublicFields1767600000300,
  PaymentBonusLinks1767800000300,
  CashierPaymentFields1767900000300,
];
