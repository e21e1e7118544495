import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, type Subscription } from '@kupa/proto';
import { ReadSource } from '../../../../platform/database/read-replica';
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
  constructor(private readonly reads: ReadSource) {}

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
    const offset = page * size;
    // The placeholders are numbered before `run`, which may run the reads twice (the replica failing, then the primary).
    const whereValues = [...parameters.values];
    const limit = parameters.add(size);
    const offsetPlaceholder = parameters.add(offset);
    return this.reads.run('subscriptions-search', async (db) => {
      const [{ total }]: Array<{ total: string }> = await db.query(
        `SELECT count(*) AS total FROM (SELECT 1 FROM subscriptions s ${where}
           LIMIT ${LIMITS.searchWindowRows}) AS windowed`,
        whereValues,
      );
      const rows: SubscriptionRow[] =
        offset >= LIMITS.searchWindowRows
          ? []
          : await db.query(
              `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions s ${where} ORDER BY ${orderBy}
                LIMIT ${limit} OFFSET ${offsetPlaceholder}`,
              parameters.values,
            );
      return toPage(rows.map(toSubscription), page, size, Number(total));
    });
  }
}
