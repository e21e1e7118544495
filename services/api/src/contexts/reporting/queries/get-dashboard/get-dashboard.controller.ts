import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DashboardSummary } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { DashboardSummaryDto } from '../../infrastructure/dashboard.responses';
import { GetDashboardQuery } from './get-dashboard.query';

@ApiTags('dashboard')
@ApiBearerAuth()
@Controller('dashboard')
export class GetDashboardController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: DashboardSummaryDto })
  // 400: a body sent to this bodiless route is refused like an unknown field.
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @ApiOperation({
    summary: "The admin's dashboard: subscriptions, revenue and deposits this month (UTC) against last, 30 days daily",
  })
  get(): Promise<DashboardSummary> {
    return this.queries.execute(new GetDashboardQuery());
  }
}
