import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { AuditLog, Page } from '@kupa/proto';
import { ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { SearchAuditLogsQuery } from './search-audit-logs.query';
import { SearchAuditLogsRequestDto } from './search-audit-logs.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { AuditLogPageDto } from '../../infrastructure/audit.responses';

@ApiTags('audit-logs')
@ApiBearerAuth()
@Controller('audit-logs')
export class SearchAuditLogsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: AuditLogPageDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search the activity log (staff)' })
  search(@Body() request: SearchAuditLogsRequestDto): Promise<Page<AuditLog>> {
    return this.queries.execute(new SearchAuditLogsQuery(request));
  }
}
