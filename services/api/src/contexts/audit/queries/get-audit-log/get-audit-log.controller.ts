import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { AuditLog } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { AuditLogIdPipe } from '../../infrastructure/params';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { GetAuditLogQuery } from './get-audit-log.query';
import { AuditLogDto } from '../../infrastructure/audit.responses';

@ApiTags('audit-logs')
@ApiBearerAuth()
@Controller('audit-logs')
export class GetAuditLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: AuditLogDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @ApiOperation({ summary: 'One activity-log entry with its changes (staff)' })
  get(@Param('id', AuditLogIdPipe) id: string): Promise<AuditLog> {
    return this.queries.execute(new GetAuditLogQuery(id));
  }
}
