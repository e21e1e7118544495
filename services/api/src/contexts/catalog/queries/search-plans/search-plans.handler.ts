import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, type Plan, parseAmountToMinor } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { orderByFromSorts, type SortColumnSql, toPage } from '../../../../platform/http';
import { PLAN_COLUMNS, type PlanRow, toPlan } from '../../projections/payment-plans/plan-view';
import { PlanReader } from '../../projections/payment-plans/plan-reader';
import { SearchPlansQuery } from './search-plans.query';
import { SqlParameters } from '../../../../platform/database/sql-parameters';

/** The SQL of each column proto's `SORTABLE_COLUMNS.paymentPlans` lists (nothing else reaches ORDER BY). */
const SORT_COLUMNS: SortColumnSql<'paymentPlans'> = Object.freeze({
  createdAt: 'p.created_at',
  name: 'lower(p.name)',
  price: 'p.price_minor',
  durationInMonths: 'p.duration_months',
  status: 'p.status',
});

/** Newest first; the id breaks ties so that paging never shows a package twice or skips one. */
const DEFAULT_ORDER = 'p.created_at DESC, p.id ASC';

function boundMinor(amount: number): number {
  const parsed = parseAmountToMinor(amount, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor });
  assert(parsed.ok, 'the DTO accepted only valid price bounds');
  return parsed.amountMinor;
}

@QueryHandler(SearchPlansQuery)
export class SearchPlansHandler implements IQueryHandler<SearchPlansQuery, Page<Plan>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: PlanReader,
  ) {}

  /** A catalogue holds a handful of packages, so the count is exact (no search window). */
  async execute({ actor, request }: SearchPlansQuery): Promise<Page<Plan>> {
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const conditions: string[] = [];
    const parameters = new SqlParameters();
    if (!isStaffRole(actor.role)) conditions.push(`p.status = 'ACTIVE'`);
    if (request.statuses && request.statuses.length > 0)
      conditions.push(`p.status = ANY(${parameters.add(request.statuses)}::text[])`);
    const from = request.price?.from;
    const to = request.price?.to;
    if (from !== undefined && from !== null) conditions.push(`p.price_minor >= ${parameters.add(boundMinor(from))}`);
    if (to !== undefined && to !== null) conditions.push(`p.price_minor <= ${parameters.add(boundMinor(to))}`);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const orderBy = orderByFromSorts(request.sorts, 'paymentPlans', SORT_COLUMNS, DEFAULT_ORDER);
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM payment_plans p ${where}`,
      parameters.values,
    );
    const rows: PlanRow[] = await this.dataSource.query(
      `SELECT ${PLAN_COLUMNS} FROM payment_plans p ${where} ORDER BY ${orderBy}
        LIMIT ${parameters.add(size)} OFFSET ${parameters.add(page * size)}`,
      parameters.values,
    );
    const plans = rows.map(toPlan);
    if (!isStaffRole(actor.role)) return toPage(plans, page, size, Number(total));
    // Staff see which packages subscriptions use before they try a delete that would be refused (ADR 0078).
    return toPage(await this.reader.withUsage(plans), page, size, Number(total));
  }
}
