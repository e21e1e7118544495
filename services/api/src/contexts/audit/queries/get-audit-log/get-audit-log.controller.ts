import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditLog } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { AuditLogIdPipe } from '../../infrastructure/params';
import { GetAuditLogQuery } from './get-audit-log.query';

@ApiTags('audit-logs')
@ApiBearerAuth()
@Controller('audit-logs')
export class GetAuditLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @Roles('ADMIN', 'MANAGER')
  @ApiOperation({ summary: 'One activity-log entry with its changes (staff)' })
  get(@Param('id', AuditLogIdPipe) id: string): Promise<AuditLog> {
    return this.queries.execute(new GetAuditLogQuery(id));
  }
}
