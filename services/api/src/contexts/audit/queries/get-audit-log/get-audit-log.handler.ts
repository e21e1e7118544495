import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AuditLog } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { AuditNameRegistry } from '../../audit-names';
import { AuditLogCatchUp } from '../../projections/audit-log/audit-log-catch-up';
import { AUDIT_LOG_COLUMNS, type AuditLogView, toAuditLogs } from '../../projections/audit-log/audit-log-view';
import { GetAuditLogQuery } from './get-audit-log.query';

@QueryHandler(GetAuditLogQuery)
export class GetAuditLogHandler implements IQueryHandler<GetAuditLogQuery, AuditLog> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly names: AuditNameRegistry,
    private readonly catchUp: AuditLogCatchUp,
  ) {}

  async execute({ id }: GetAuditLogQuery): Promise<AuditLog> {
    await this.catchUp.wait();
    const rows: AuditLogView[] = await this.dataSource.query(
      `SELECT ${AUDIT_LOG_COLUMNS} FROM audit_logs a WHERE a.id = $1`,
      [id],
    );
    if (!rows[0]) throw new ApiError('error.audit.not.found');
    const [entry] = await toAuditLogs(rows, this.names, this.dataSource);
    return entry;
  }
}
