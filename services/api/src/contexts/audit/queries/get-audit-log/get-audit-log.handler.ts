import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AuditLog } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { AUDIT_LOG_COLUMNS, type AuditLogView, toAuditLog } from '../../projections/audit-log/audit-log-view';
import { GetAuditLogQuery } from './get-audit-log.query';

@QueryHandler(GetAuditLogQuery)
export class GetAuditLogHandler implements IQueryHandler<GetAuditLogQuery, AuditLog> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ id }: GetAuditLogQuery): Promise<AuditLog> {
    const rows: AuditLogView[] = await this.dataSource.query(
      `SELECT ${AUDIT_LOG_COLUMNS} FROM audit_logs a WHERE a.id = $1`,
      [id],
    );
    if (!rows[0]) throw new ApiError('error.audit.not.found');
    return toAuditLog(rows[0]);
  }
}
