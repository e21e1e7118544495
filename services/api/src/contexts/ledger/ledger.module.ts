import { Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { UserBalances } from '../identity';
import { EventTypeRegistry } from '../../platform/event-store';
import { Schedules } from '../../platform/jobs';
import { InlineProjectionRegistry } from '../../platform/projections';
import { CashierJanitor } from './processors/cashier-janitor/cashier-janitor.sweep';
import { ChangePaymentStatusController } from './commands/change-payment-status/change-payment-status.controller';
import { ChangePaymentStatusHandler } from './commands/change-payment-status/change-payment-status.handler';
import { RecordManualPaymentController } from './commands/record-manual-payment/record-manual-payment.controller';
import { RecordManualPaymentHandler } from './commands/record-manual-payment/record-manual-payment.handler';
import { CreditGoodwillHandler } from './commands/credit-goodwill/credit-goodwill.handler';
import { TransferBalanceController } from './commands/transfer-balance/transfer-balance.controller';
import { TransferBalanceHandler } from './commands/transfer-balance/transfer-balance.handler';
import { ALL_LEDGER_EVENT_TYPES } from './domain/ledger.events';
import { TransferRecipients } from './infrastructure/transfer-recipients';
import { LEDGER_AUDIT_MAPPERS } from './ledger.audit';
import { VOUCHER_AUDIT_MAPPERS } from './vouchers.audit';
import { DEPOSIT_ATTENTION_AUDIT_MAPPERS } from './deposit-attention.audit';
import { DEPOSIT_CLAIM_AUDIT_MAPPERS } from './deposit-claims.audit';
import { ALL_DEPOSIT_CLAIM_EVENT_TYPES } from './domain/deposit-claims.decider';
import { ClaimManualTransferController } from './commands/claim-manual-transfer/claim-manual-transfer.controller';
import { ClaimManualTransferHandler } from './commands/claim-manual-transfer/claim-manual-transfer.handler';
import { RejectDepositClaimController } from './commands/reject-deposit-claim/reject-deposit-claim.controller';
import { RejectDepositClaimHandler } from './commands/reject-deposit-claim/reject-deposit-claim.handler';
import { ListDepositClaimsController } from './queries/list-deposit-claims/list-deposit-claims.controller';
import { DepositClaimsProjection } from './projections/deposit-claims/deposit-claims.projection';
import { DepositClaimsReader } from './projections/deposit-claims/deposit-claims.reader';
import { ALL_DEPOSIT_ATTENTION_EVENT_TYPES } from './domain/large-deposit-attention.decider';
import { AcknowledgeLargeDepositController } from './commands/acknowledge-large-deposit/acknowledge-large-deposit.controller';
import { AcknowledgeLargeDepositHandler } from './commands/acknowledge-large-deposit/acknowledge-large-deposit.handler';
import { registerLedgerEventTypes } from './ledger-event-types';
import { LedgerEntriesProjection } from './projections/ledger-entries/ledger-entries.projection';
import { LedgerUserBalances } from './projections/ledger-entries/ledger-user-balances';
import { GetPaymentController } from './projections/payments/get-payment.controller';
import { PaymentReader } from './projections/payments/payment-reader';
import { PaymentsProjection } from './projections/payments/payments.projection';
import { WalletSnapshotsProjection } from './projections/wallet-snapshots/wallet-snapshots.projection';
import { OpenCryptoDepositController } from './commands/open-crypto-deposit/open-crypto-deposit.controller';
import { OpenCryptoDepositHandler } from './commands/open-crypto-deposit/open-crypto-deposit.handler';
import { ReceiveCashierIpnController } from './commands/receive-cashier-ipn/receive-cashier-ipn.controller';
import { CashierDeposits } from './application/cashier/cashier-deposits';
import { CashierInvoiceOwners } from './application/cashier/cashier-invoice-owners';
import { SandboxInvoiceOwners } from '../../platform/cashier';
import { CryptoDepositInvoices } from './application/cashier/crypto-deposit-invoices';
import { CardDepositCheckouts } from './application/card/card-deposit-checkouts';
import { GetCryptoDepositOptionsController } from './queries/get-crypto-deposit-options/get-crypto-deposit-options.controller';
import { LookUpTransferRecipientController } from './queries/look-up-transfer-recipient/look-up-transfer-recipient.controller';
import { LookUpTransferRecipientHandler } from './queries/look-up-transfer-recipient/look-up-transfer-recipient.handler';
import { LedgerQueriesModule } from './queries';
import { MailDispatcher } from '../../platform/mail';
import { ProcessorRunner } from '../../platform/projections';
import { UserReader } from '../identity';
import { StaffAlerts } from '../notifications';
import { ReceiptsProcessor } from './processors/receipts/receipts.processor';
import { ReceiptMailKind } from './infrastructure/receipt-mail';
import { BalanceNoticesProcessor } from './processors/balance-notices/balance-notices.processor';
import { LowBalanceMailKind, TransferReceivedMailKind } from './infrastructure/balance-notice-mails';
import { ClientReceiptsController } from './queries/receipts/client-receipts.controller';
import { MyReceiptsController } from './queries/receipts/my-receipts.controller';
import { ReceiptReader } from './queries/receipts/receipt-reader';
import { SubscriptionPaymentDetails } from './queries/payment-rows/subscription-payment-details.port';

import { CardTopUps } from './application/card/card-top-ups';
import { OpenCardDepositController } from './commands/open-card-deposit/open-card-deposit.controller';
import { OpenCardDepositHandler } from './commands/open-card-deposit/open-card-deposit.handler';
import { FundVoucherBatchController } from './commands/fund-voucher-batch/fund-voucher-batch.controller';
import { FundVoucherBatchHandler } from './commands/fund-voucher-batch/fund-voucher-batch.handler';
import { GenerateVoucherBatchController } from './commands/generate-voucher-batch/generate-voucher-batch.controller';
import { GenerateVoucherBatchHandler } from './commands/generate-voucher-batch/generate-voucher-batch.handler';
import { RedeemVoucherController } from './commands/redeem-voucher/redeem-voucher.controller';
import { PreviewVoucherController } from './queries/preview-voucher/preview-voucher.controller';
import { RedeemVoucherHandler } from './commands/redeem-voucher/redeem-voucher.handler';
import { ALL_VOUCHER_EVENT_TYPES } from './domain/voucher-batch.decider';
import { VoucherCodes } from './infrastructure/voucher-codes';
import { VoucherBatchesProjection } from './projections/voucher-batches/voucher-batches.projection';
import { ListVoucherBatchesController } from './queries/list-voucher-batches/list-voucher-batches.controller';
/**
 * The ledger (ADR 0006): wallets and payments as event streams, double-entry postings, inline read models
 * (payments, ledger entries, user balances, wallet snapshots) and idempotent money-moving commands. Global because it
 * binds identity's `UserBalances` port, which identity's own (global) module injects without importing the ledger
 * (ADR 0013) and the sandbox cashier's
 * `SandboxInvoiceOwners` the same way (ADR 0055), and it lends other contexts its deposits' provider side, its
 * streams and its pure deciders through its index.
 */
@Global()
@Module({
  // The read side (search, export, account history) lives in its own module under queries/.
  imports: [LedgerQueriesModule],
  // Literal paths before `:id`, so that `/payments/transfer` is never read as a payment id. The recipient look-up
  // belongs to the read side but sits here: it shares the transfer's rate-limit counters, which live in one
  // interceptor per module.
  controllers: [
    AcknowledgeLargeDepositController,
    ClaimManualTransferController,
    RejectDepositClaimController,
    ListDepositClaimsController,
    TransferBalanceController,
    LookUpTransferRecipientController,
    OpenCryptoDepositController,
    OpenCardDepositController,
    ReceiveCashierIpnController,
    GetCryptoDepositOptionsController,
    RecordManualPaymentController,
    ChangePaymentStatusController,
    GetPaymentController,
    RedeemVoucherController,
    PreviewVoucherController,
    GenerateVoucherBatchController,
    ListVoucherBatchesController,
    FundVoucherBatchController,
    MyReceiptsController,
    ClientReceiptsController,
  ],
  providers: [
    AcknowledgeLargeDepositHandler,
    ClaimManualTransferHandler,
    RejectDepositClaimHandler,
    DepositClaimsReader,
    PaymentReader,
    ReceiptReader,
    { provide: UserBalances, useClass: LedgerUserBalances },
    { provide: SandboxInvoiceOwners, useClass: CashierInvoiceOwners },
    TransferRecipients,
    LookUpTransferRecipientHandler,
    RecordManualPaymentHandler,
    CreditGoodwillHandler,
    TransferBalanceHandler,
    ChangePaymentStatusHandler,
    CashierDeposits,
    CryptoDepositInvoices,
    CardDepositCheckouts,
    OpenCryptoDepositHandler,
    CardTopUps,
    OpenCardDepositHandler,
    VoucherCodes,
    GenerateVoucherBatchHandler,
    FundVoucherBatchHandler,
    RedeemVoucherHandler,
  ],
  // The deposits' provider side, for any flow that opens a deposit (docs/adr/0073-ledger-public-door.md); what a
  // deposit, a charge or a refund decides is pure functions of `index.ts`, not providers.
  exports: [UserBalances, SandboxInvoiceOwners, CryptoDepositInvoices, CardDepositCheckouts, CardTopUps],
})
export class LedgerModule implements OnModuleInit {
  constructor(
    private readonly eventTypes: EventTypeRegistry,
    private readonly projections: InlineProjectionRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    private readonly schedules: Schedules,
    private readonly dataSource: DataSource,
    private readonly deposits: CashierDeposits,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly processors: ProcessorRunner,
    private readonly mailDispatcher: MailDispatcher,
    private readonly users: UserReader,
    private readonly subscriptionPayments: SubscriptionPaymentDetails,
    private readonly receipts: ReceiptReader,
    private readonly staffAlerts: StaffAlerts,
  ) {}

  onModuleInit(): void {
    registerLedgerEventTypes(this.eventTypes);
    this.projections.register(new PaymentsProjection());
    this.projections.register(new LedgerEntriesProjection());
    this.projections.register(new WalletSnapshotsProjection());
    this.projections.register(new VoucherBatchesProjection());
    this.projections.register(new DepositClaimsProjection());
    for (const type of ALL_LEDGER_EVENT_TYPES) this.auditMappers.register(type, LEDGER_AUDIT_MAPPERS[type]);
    for (const type of ALL_VOUCHER_EVENT_TYPES) this.auditMappers.register(type, VOUCHER_AUDIT_MAPPERS[type]);
    for (const type of ALL_DEPOSIT_CLAIM_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, DEPOSIT_CLAIM_AUDIT_MAPPERS[type]);
    }
    for (const type of ALL_DEPOSIT_ATTENTION_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, DEPOSIT_ATTENTION_AUDIT_MAPPERS[type]);
    }
    // A batch is named by the label it was generated with, which no later event changes.
    this.auditNames.registerRecordedName('VOUCHER_BATCH', 'label');
    // Receipts, numbered in commit order with no gaps, and the mail that confirms each payment (ADR 0097).
    // A large deposit credited is also a staff alert (ADR 0106), recorded beside its receipt.
    this.processors.register(
      new ReceiptsProcessor(
        this.users,
        this.subscriptionPayments,
        this.clock,
        this.staffAlerts,
        this.config.staffAlertLargeDepositMinor,
      ),
    );
    this.mailDispatcher.registerKind(
      new ReceiptMailKind(this.receipts, this.config.publicUrl, this.config.operator.name),
    );
    // Transfers received and balances under the client's threshold, in the portal and by mail (ADR 0105).
    this.processors.register(new BalanceNoticesProcessor(this.users, this.clock));
    this.mailDispatcher.registerKind(new TransferReceivedMailKind(this.config.publicUrl, this.config.operator.name));
    this.mailDispatcher.registerKind(new LowBalanceMailKind(this.config.publicUrl, this.config.operator.name));
    this.schedules.register(
      new CashierJanitor(
        this.dataSource,
        this.deposits,
        this.clock,
        this.config.cashierPendingTimeoutMinutes,
        this.config.cashierJanitorIntervalMs,
      ),
    );
  }
}
