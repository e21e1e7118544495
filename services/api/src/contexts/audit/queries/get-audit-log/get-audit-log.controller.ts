import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditLog } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { ApiError } from '../../../../platform/http';
import { GetAuditLogQuery } from './get-audit-log.query';

/** A malformed id names no entry, so it answers like a missing one (404), never a 500 from the uuid column. */
const AuditLogIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new ApiError('error.audit.not.found') });

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
