import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, type Subscription } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { orderByFromSorts, type SortColumnSql, toPage } from '../../../../platform/http';
import {
  SUBSCRIPTION_COLUMNS,
  type SubscriptionRow,
  toSubscription,
} from '../../projections/subscriptions/subscription-view';
import { SearchSubscriptionsQuery } from './search-subscriptions.query';
import { subscriptionFilterConditions } from './subscription-filter';

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
    conditions.push(...subscriptionFilterConditions(request, parameters));
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
