import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, parseAmountToMinor, type Subscription } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { type DateRangeDto, orderByFromSorts, type SortColumnSql, toPage } from '../../../../platform/http';
import {
  SUBSCRIPTION_COLUMNS,
  type SubscriptionRow,
  toSubscription,
} from '../../projections/subscriptions/subscription-view';
import { SearchSubscriptionsQuery } from './search-subscriptions.query';

/** The SQL of each column proto's `SORTABLE_COLUMNS.subscriptions` lists (nothing else reaches ORDER BY). */
const SORT_COLUMNS: SortColumnSql<'subscriptions'> = Object.freeze({
  createdAt: 's.created_at',
  startDate: 's.start_date',
  endDate: 's.end_date',
  price: 's.price_minor',
  status: 's.status',
  type: 's.type',
  durationInMonth: 's.duration_in_month',
  userEmail: 'lower(s.user_email)',
});

/** Newest first; the id breaks ties so that paging never shows a subscription twice or skips one. */
const DEFAULT_ORDER = 's.created_at DESC, s.id ASC';

/** A date without a time part (`2026-05-03`): as the upper bound it means "to the end of that day". */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

function boundMinor(amount: number): number {
  const parsed = parseAmountToMinor(amount, { allowZero: true, maxMinor: LIMITS.planPriceMaxMinor });
  assert(parsed.ok, 'the DTO accepted only valid price bounds');
  return parsed.amountMinor;
}

/** An inclusive date range on `column`; a day without a time reaches to the end of that day. */
function dateRange(column: string, range: DateRangeDto | undefined, parameters: SqlParameters): string[] {
  const conditions: string[] = [];
  if (range?.from) conditions.push(`${column} >= ${parameters.add(new Date(range.from))}`);
  if (range?.to) {
    conditions.push(
      DATE_ONLY.test(range.to)
        ? `${column} < ${parameters.add(new Date(new Date(range.to).getTime() + DAY_MS))}`
        : `${column} <= ${parameters.add(new Date(range.to))}`,
    );
  }
  return conditions;
}

@QueryHandler(SearchSubscriptionsQuery)
export class SearchSubscriptionsHandler implements IQueryHandler<SearchSubscriptionsQuery, Page<Subscription>> {
  constructor(private readonly dataSource: DataSource) {}

  /** Counted within the search window (ADR 0010), like the payments search. */
  async execute({ actor, request }: SearchSubscriptionsQuery): Promise<Page<Subscription>> {
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const parameters = new SqlParameters();
    const conditions: string[] = [];
    if (!isStaffRole(actor.role)) conditions.push(`s.user_uuid = ${parameters.add(actor.userUuid)}::uuid`);
    if (request.userUuid) conditions.push(`s.user_uuid = ${parameters.add(request.userUuid)}::uuid`);
    if (request.ids && request.ids.length > 0) {
      const patterns = request.ids.map((part) => `%${part}%`);
      conditions.push(`s.id::text LIKE ANY(${parameters.add(patterns)}::text[])`);
    }
    const lists: Array<[string, readonly unknown[] | undefined, string]> = [
      ['s.duration_in_month', request.durationsInMonths, 'smallint[]'],
      ['s.type', request.types, 'text[]'],
      ['s.status', request.statuses, 'text[]'],
    ];
    for (const [column, values, type] of lists) {
      if (values && values.length > 0) conditions.push(`${column} = ANY(${parameters.add(values)}::${type})`);
    }
    conditions.push(...dateRange('s.start_date', request.startDate, parameters));
    conditions.push(...dateRange('s.end_date', request.endDate, parameters));
    conditions.push(...dateRange('s.created_at', request.createdAt, parameters));
    const from = request.price?.from;
    const to = request.price?.to;
    if (from !== undefined && from !== null) conditions.push(`s.price_minor >= ${parameters.add(boundMinor(from))}`);
    if (to !== undefined && to !== null) conditions.push(`s.price_minor <= ${parameters.add(boundMinor(to))}`);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const orderBy = orderByFromSorts(request.sorts, 'subscriptions', SORT_COLUMNS, DEFAULT_ORDER);
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT count(*) AS total FROM (SELECT 1 FROM subscriptions s ${where}
         LIMIT ${LIMITS.searchWindowRows}) AS windowed`,
      parameters.values,
    );
    const offset = page * size;
    const rows: SubscriptionRow[] =
      offset >= LIMITS.searchWindowRows
        ? []
        : await this.dataSource.query(
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions s ${where} ORDER BY ${orderBy}
              LIMIT ${parameters.add(size)} OFFSET ${parameters.add(offset)}`,
            parameters.values,
          );
    return toPage(rows.map(toSubscription), page, size, Number(total));
  }
}
