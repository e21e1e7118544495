import { Module } from '@nestjs/common';
import { ExportPaymentsController } from './export-payments/export-payments.controller';
import { ExportPaymentsHandler } from './export-payments/export-payments.handler';
import { GetAccountHistoryController } from './get-account-history/get-account-history.controller';
import { GetAccountHistoryHandler } from './get-account-history/get-account-history.handler';
import { GetBalanceAtController } from './get-balance-at/get-balance-at.controller';
import { GetBalanceAtHandler } from './get-balance-at/get-balance-at.handler';
import { GetStatementController } from './get-statement/get-statement.controller';
import { GetStatementHandler } from './get-statement/get-statement.handler';
import { SearchPaymentsController } from './search-payments/search-payments.controller';
import { SearchPaymentsHandler } from './search-payments/search-payments.handler';

/** The ledger's read side: payments search and export, an account's history at any instant, statements. */
@Module({
  // The literal routes (`search`, `export`) before any parameterised `payments/:id` of the command side.
  controllers: [
    SearchPaymentsController,
    ExportPaymentsController,
    GetAccountHistoryController,
    GetStatementController,
    GetBalanceAtController,
  ],
  providers: [
    SearchPaymentsHandler,
    ExportPaymentsHandler,
    GetAccountHistoryHandler,
    GetStatementHandler,
    GetBalanceAtHandler,
  ],
})
export class LedgerQueriesModule {}
