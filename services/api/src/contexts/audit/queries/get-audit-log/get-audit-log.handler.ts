import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AuditLog } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { AuditLogView, toAuditLog } from '../../projections/audit-log/audit-log.entity';
import { GetAuditLogQuery } from './get-audit-log.query';

@QueryHandler(GetAuditLogQuery)
export class GetAuditLogHandler implements IQueryHandler<GetAuditLogQuery, AuditLog> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ id }: GetAuditLogQuery): Promise<AuditLog> {
    const view = await this.dataSource.getRepository(AuditLogView).findOneBy({ id });
    if (!view) throw new ApiError('error.audit.not.found');
    return toAuditLog(view);
  }
}
