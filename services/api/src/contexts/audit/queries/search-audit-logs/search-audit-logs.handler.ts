import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type AuditLog, LIMITS, type Page } from '@kupa/proto';
import { ReadSource } from '../../../../platform/database/read-replica';
import { orderByFromSorts, type SortColumnSql, toPage } from '../../../../platform/http';
import { AuditNameRegistry } from '../../audit-names';
import { AuditLogCatchUp } from '../../projections/audit-log/audit-log-catch-up';
import { AUDIT_LOG_COLUMNS, type AuditLogView, toAuditLogs } from '../../projections/audit-log/audit-log-view';
import { SearchAuditLogsQuery } from './search-audit-logs.query';
import { SqlParameters } from '../../../../platform/database/sql-parameters';

/** The SQL of each column proto's `SORTABLE_COLUMNS.auditLogs` lists (nothing else reaches ORDER BY). */
const SORT_COLUMNS: SortColumnSql<'auditLogs'> = Object.freeze({
  createdAt: 'a.created_at',
  operationType: 'a.operation_type',
  targetType: 'a.target_type',
});

/** Newest first; entries of one instant keep the order their events were stored in. */
const DEFAULT_ORDER = 'a.created_at DESC, a.global_position DESC, a.id ASC';

@QueryHandler(SearchAuditLogsQuery)
export class SearchAuditLogsHandler implements IQueryHandler<SearchAuditLogsQuery, Page<AuditLog>> {
  constructor(
    private readonly reads: ReadSource,
    private readonly names: AuditNameRegistry,
    private readonly catchUp: AuditLogCatchUp,
  ) {}

  async execute({ request }: SearchAuditLogsQuery): Promise<Page<AuditLog>> {
    await this.catchUp.wait();
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const orderBy = orderByFromSorts(request.sorts, 'auditLogs', SORT_COLUMNS, DEFAULT_ORDER);
    const conditions: string[] = [];
    const parameters = new SqlParameters();
    if (request.targetAndParentTypes && request.targetAndParentTypes.length > 0) {
      const types = parameters.add(request.targetAndParentTypes);
      conditions.push(`(a.target_type = ANY(${types}::text[]) OR a.parent_type = ANY(${types}::text[]))`);
    }
    if (request.targetAndParentIds && request.targetAndParentIds.length > 0) {
      const ids = parameters.add(request.targetAndParentIds);
      // An operation's id finds its entries too: a bulk batch's targets carry it as their correlation id (ADR 0090).
      conditions.push(
        `(a.target_id = ANY(${ids}::text[]) OR a.parent_id = ANY(${ids}::text[]) OR a.correlation_id = ANY(${ids}::text[]))`,
      );
    }
    if (request.operationTypes && request.operationTypes.length > 0)
      conditions.push(`a.operation_type = ANY(${parameters.add(request.operationTypes)}::text[])`);
    if (request.createdAt?.from) conditions.push(`a.created_at >= ${parameters.add(new Date(request.createdAt.from))}`);
    if (request.createdAt?.to) conditions.push(`a.created_at <= ${parameters.add(new Date(request.createdAt.to))}`);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';

    // The placeholders are numbered before `run`, which may run the reads twice (the replica failing, then the primary).
    const whereValues = [...parameters.values];
    const limit = parameters.add(size);
    const offset = parameters.add(page * size);
    return this.reads.run('activity-log', async (db) => {
      const [{ total }]: Array<{ total: string }> = await db.query(
        `SELECT count(*) AS total FROM audit_logs a ${where}`,
        whereValues,
      );
      const views: AuditLogView[] = await db.query(
        `SELECT ${AUDIT_LOG_COLUMNS} FROM audit_logs a ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
        parameters.values,
      );
      return toPage(await toAuditLogs(views, this.names, db), page, size, Number(total));
    });
  }
}
