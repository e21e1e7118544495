import { Module } from '@nestjs/common';
import { GetDashboardController } from './queries/get-dashboard/get-dashboard.controller';
import { GetDashboardHandler } from './queries/get-dashboard/get-dashboard.handler';

/**
 * Reporting: figures across contexts for staff (the admin's dashboard). It owns no table and writes nothing; it reads
 * the ledger's and the subscriptions' read models only through the queries their contexts export (ADR 0013).
 */
@Module({
  controllers: [GetDashboardController],
  providers: [GetDashboardHandler],
})
export class ReportingModule {}
