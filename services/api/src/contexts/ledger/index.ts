import { Receipts1770700009700 } from './infrastructure/receipts.migrations';
import { BalanceNoticesCheckpoint1770900010510 } from './infrastructure/balance-notices.migrations';
import {
  CardPaymentFields1768100000300,
  PaymentReviewFields1768400000300,
  CashierPaymentFields1767900000300,
  DepositPurchaseFields1768000000300,
  LargeDepositAcknowledgements1770500009120,
  DepositClaims1771100011200,
  LedgerEntriesByPaymentDropped1772400012900,
  LedgerSchema1767225600300,
  LedgerUserBalancesByUser1768600007800,
  LedgerUserBalancesView1767400000300,
  PaymentBonusLinks1767800000300,
  PaymentDiscountPercent1767800000400,
  PaymentPublicFields1767600000300,
  PaymentPurchaseColumnsDropped1768500000400,
  PaymentRefundedBy1770300009200,
} from './infrastructure/ledger.migrations';
import { DayVoucherColumns1770400009300, VoucherTables1770100008900 } from './infrastructure/voucher.migrations';
import { ledgerQueryMigrations } from './queries';

export { LedgerModule } from './ledger.module';
export { PaymentIdPipe } from './infrastructure/params';
/** Spreadsheet-safe CSV (ADR 0020, 0059): other contexts' exports write their lines with it. */
export { csvLine, UTF8_BOM } from './queries/export-payments/csv';
export { CreditGoodwillCommand } from './commands/credit-goodwill/credit-goodwill.command';
export { ledgerMoneyFigures, type MoneyInPeriod } from './queries/money-figures/money-figures';
export { voucherFigures, type VoucherFigures } from './queries/voucher-figures/voucher-figures';
export { paymentAttention } from './queries/attention-queue/payment-attention';
export { CardCheckoutResponseDto, CryptoDepositResponseDto } from './infrastructure/ledger.responses';
export {
  decideWalletCharge,
  decideWalletRefund,
  decideRefundToBalance,
  type WalletPaymentEvents,
  type WalletPaymentInput,
  type WalletPaymentStates,
} from './domain/wallet-payment';
export {
  bookOffSessionCardCharge,
  type OffSessionCardCharge,
  depositAmountMinor,
  depositFacts,
  type DepositFacts,
  type DepositOwner,
  openCardDeposit,
  openCryptoDeposit,
  type OpenedCheckout,
  type OpenedInvoice,
} from './domain/deposits';
export {
  type CardReportDecision,
  type CardReportInput,
  type CardReportStates,
  mayEarnAmbassadorBonus,
  settleCardReport,
} from './domain/card-report';
export type { CardReport } from './domain/payment.decider';
export type { PaymentState } from './domain/payment.state';
export type { WalletState } from './domain/wallet.state';
export {
  DayVoucherSubscriptions,
  type DayVoucherPackage,
  type DayVoucherPreview,
  type DayVoucherRedemptionOutcome,
  type DayVoucherRedemptionRequest,
} from './application/day-voucher-subscriptions.port';
/** A day voucher's redemption, composed by subscriptions in its own command (ADR 0089). */
export { dayVoucherExtensionKey, redeemableDayCode, redeemDayVoucher } from './domain/voucher-batch.decider';
export { CardDepositCheckouts, type CardDepositRow } from './application/card/card-deposit-checkouts';
export { CardTopUps, type CardTopUpSettlement } from './application/card/card-top-ups';
export { CryptoDepositInvoices } from './application/cashier/crypto-deposit-invoices';
export {
  type LoadedPaymentStream,
  type LoadedWalletStream,
  ledgerStreams,
  type PaymentStreamRef,
  voucherBatchStreams,
  type WalletStreamRef,
} from './infrastructure/ledger-streams';
export { DepositPurchaseDetails } from './queries/payment-rows/deposit-purchase-details.port';
export { SubscriptionPaymentDetails } from './queries/payment-rows/subscription-payment-details.port';
export { checkLedgerReadModelsInWorker, type LedgerCheckCounts } from './verification/ledger-read-models.check';
export { accountsReplayReads } from './domain/replay-ledger';
export {
  type LedgerIncrement,
  type LedgerIncrementResult,
  startLedgerIncrement,
} from './verification/ledger-since.check';
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
  LedgerUserBalancesByUser1768600007800,
  VoucherTables1770100008900,
  PaymentRefundedBy1770300009200,
  DayVoucherColumns1770400009300,
  LargeDepositAcknowledgements1770500009120,
  Receipts1770700009700,
  BalanceNoticesCheckpoint1770900010510,
  DepositClaims1771100011200,
  LedgerEntriesByPaymentDropped1772400012900,
];

/** The embedded demo's history goes through the same commands as real traffic (ADR 0075). */
export { RecordManualPaymentCommand } from './commands/record-manual-payment/record-manual-payment.command';
export { OpenCryptoDepositCommand } from './commands/open-crypto-deposit/open-crypto-deposit.command';
export { TransferBalanceCommand } from './commands/transfer-balance/transfer-balance.command';
