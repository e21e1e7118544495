import {
  CashierPaymentFields1767900000300,
  LedgerSchema1767225600300,
  LedgerUserBalancesView1767400000300,
  PaymentBonusLinks1767800000300,
  PaymentDiscountPercent1767800000400,
  PaymentPublicFields1767600000300,
} from './infrastructure/ledger.migrations';
import { ledgerQueryMigrations } from './queries';

export { LedgerModule } from './ledger.module';
export { ledgerMoneyFigures, type MoneyInPeriod } from './queries/money-figures/money-figures';
export { IdempotencyKeys } from './infrastructure/idempotency-keys';
export { IdempotentCommands } from './infrastructure/idempotent-commands';
export { AcceptsIdempotencyKey, IdempotencyKeyHeader } from './infrastructure/money-requests';
export { parseIdempotencyKey } from './infrastructure/idempotency-keys';
export {
  type LoadedSubscriptionPayment,
  SubscriptionPayments,
  type SubscriptionPaymentStreams,
} from './infrastructure/subscription-payments';
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
  PaymentDiscountPercent1767800000400,
];
