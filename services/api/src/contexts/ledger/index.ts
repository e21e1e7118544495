import {
  CardPaymentFields1768100000300,
  PaymentReviewFields1768400000300,
  CashierPaymentFields1767900000300,
  DepositPurchaseFields1768000000300,
  LedgerSchema1767225600300,
  LedgerUserBalancesView1767400000300,
  PaymentBonusLinks1767800000300,
  PaymentDiscountPercent1767800000400,
  PaymentPublicFields1767600000300,
  PaymentPurchaseColumnsDropped1768500000400,
} from './infrastructure/ledger.migrations';
import { ledgerQueryMigrations } from './queries';

export { LedgerModule } from './ledger.module';
export { ledgerMoneyFigures, type MoneyInPeriod } from './queries/money-figures/money-figures';
export { CryptoDepositResponseDto } from './infrastructure/ledger.responses';
export {
  decideWalletCharge,
  decideWalletRefund,
  type LoadedWalletPayment,
  nextPaymentId,
  walletPaymentStreams,
  type WalletPaymentStreams,
} from './infrastructure/wallet-payments';
export {
  type DepositFacts,
  CryptoDeposits,
  type DepositStreamRef,
  type LoadedDeposit,
} from './application/cashier/crypto-deposits';
export type { OpenedInvoice } from './application/cashier/cashier-deposits';
export {
  CardDeposits,
  type CardDepositRow,
  type CardReportDecision,
  type OpenedCheckout,
} from './application/card/card-deposits';
export type { CardReport } from './domain/payment.decider';
export { DepositPurchaseDetails } from './queries/payment-rows/deposit-purchase-details.port';
export { checkLedgerReadModelsInWorker, type LedgerCheckCounts } from './verification/ledger-read-models.check';
export {
  type DifferenceSink,
  type DifferenceSource,
  KeptDifferences,
  type LedgerDifference,
} from './verification/differences';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ledgerMigrations: Function[] = [
  LedgerSchema1767225600300,
  ...ledgerQueryMigrations,
  LedgerUserBalancesView1767400000300,
  PaymentPublicFields1767600000300,
  PaymentBonusLinks1767800000300,
  CashierPaymentFields1767900000300,
  PaymentDiscountPercent1767800000400,
  DepositPurchaseFields1768000000300,
  CardPaymentFields1768100000300,
  PaymentReviewFields1768400000300,
  PaymentPurchaseColumnsDropped1768500000400,
];
