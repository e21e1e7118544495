import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditLog, Page } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { SearchAuditLogsQuery } from './search-audit-logs.query';
import { SearchAuditLogsRequestDto } from './search-audit-logs.request.dto';

@ApiTags('audit-logs')
@ApiBearerAuth()
@Controller('audit-logs')
export class SearchAuditLogsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search the activity log (staff)' })
  search(@Body() request: SearchAuditLogsRequestDto): Promise<Page<AuditLog>> {
    return this.queries.execute(new SearchAuditLogsQuery(request));
  }
}
