import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, type Payment } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { ReadSource } from '../../../../platform/database/read-replica';
import { ApiError, toPage } from '../../../../platform/http';
import {
  checkPaymentDateRange,
  checkPaymentKeyword,
  datedKeywordCountSql,
  isBoundedToRecentPayments,
  isDatedKeywordSearch,
  latestPaymentsCountSql,
  latestPaymentsPageAndCountSql,
  latestPaymentsRelation,
  PAYMENT_COLUMNS,
  paymentAudienceOf,
  paymentDateConditions,
  paymentOrderBy,
  type PaymentRow,
  paymentsWithPurchases,
  paymentWhere,
  RECENT_PAYMENTS_START_SQL,
  toPayment,
} from '../payment-rows/payment-query';
import { DepositPurchaseDetails } from '../payment-rows/deposit-purchase-details.port';
import { SubscriptionPaymentDetails } from '../payment-rows/subscription-payment-details.port';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { SearchPaymentsQuery } from './search-payments.query';

/** How long the start of the latest payments is kept before it is looked up again (see `RECENT_PAYMENTS_START_SQL`). */
const RECENT_START_KEPT_MS = 60_000;

@QueryHandler(SearchPaymentsQuery)
export class SearchPaymentsHandler implements IQueryHandler<SearchPaymentsQuery, Page<Payment>> {
  private recentStart: { at: Date | null; keptUntilMs: number } | null = null;

  constructor(
    private readonly reads: ReadSource,
    private readonly clock: Clock,
    private readonly purchases: DepositPurchaseDetails,
    private readonly subscriptionPayments: SubscriptionPaymentDetails,
  ) {}

  async execute({ actor, request, userUuid }: SearchPaymentsQuery): Promise<Page<Payment>> {
    checkPaymentDateRange(request);
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const owner = this.ownerOf(actor, userUuid);
    checkPaymentKeyword(request, owner);
    const audience = paymentAudienceOf(actor.role);
    const parameters = new SqlParameters();
    const filtersWhere = paymentWhere(request, owner, parameters, audience, this.subscriptionPayments);
    const recentStart = isBoundedToRecentPayments(request, owner) ? await this.latestPaymentsStart() : null;
    const orderBy = paymentOrderBy(request, owner, { walksLatestPayments: recentStart !== null });
    const offset = page * size;
    const pageSql = (where: string, limit: number, paymentsRelation?: string) =>
      `SELECT ${PAYMENT_COLUMNS} FROM ${paymentsWithPurchases(this.purchases, this.subscriptionPayments, paymentsRelation)}
        ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
    // Beyond the search window (ADR 0010) later pages are empty and `totalElements` is the window.
    const limit = Math.min(size, LIMITS.searchWindowRows - offset);
    const windowCountSql = `SELECT count(*)::int AS total
      FROM (SELECT 1 FROM payments p ${filtersWhere} LIMIT ${LIMITS.searchWindowRows}) capped`;

    const {
      rows,
      total,
      totalIsLowerBound = false,
    } = await this.reads.run('payments-search', async (db) => {
      const query = <T>(sql: string) => db.query(sql, parameters.values) as Promise<T[]>;
      const readPage = (paymentsRelation?: string) =>
        limit <= 0 ? Promise.resolve([]) : query<PaymentRow>(pageSql(filtersWhere, limit, paymentsRelation));
      // A page that is not full (and some, or the first) tells the total itself.
      const tellsItsTotal = (read: PaymentRow[]) => read.length < limit && (read.length > 0 || offset === 0);
      // Otherwise `countSql()` is sent after it.
      const pageFirst = async (read: PaymentRow[], countSql: () => string) => {
        if (tellsItsTotal(read)) return { rows: read, total: offset + read.length };
        const [counted] = await query<{ total: number }>(countSql());
        return { rows: read, total: counted.total };
      };

      if (recentStart === null && isDatedKeywordSearch(request, owner)) {
        // A keyword within picked dates (ADR 0123): the page first, as for the latest payments (ADR 0120); a full page
        // then sends the count, which walks the range's newest payments only (ADR 0125), so that no range and no
        // keyword make it read more. When the range holds more, a count under the search window is a lower bound.
        const read = await readPage();
        if (tellsItsTotal(read)) return { rows: read, total: offset + read.length };
        const range = paymentDateConditions(request, parameters).join(' AND ');
        const [counted] = await query<{ total: number; more: boolean }>(datedKeywordCountSql(filtersWhere, range));
        if (!counted.more || counted.total >= LIMITS.searchWindowRows) return { rows: read, total: counted.total };
        return { rows: read, total: Math.max(counted.total, offset + read.length), totalIsLowerBound: true };
      }

      if (recentStart === null) {
        // An exact count of a million rows would cost far more than the page: count and page within the search
        // window, side by side.
        const [[counted], read] = await Promise.all([query<{ total: number }>(windowCountSql), readPage()]);
        return { rows: read, total: counted.total };
      }

      // A keyword without dates looks at the latest payments only (ADR 0115), the count too (ADR 0120). The start
      // goes in as a value, so that PostgreSQL plans with a range it can see the size of. The page walks the bound
      // newest first (ADR 0123), so that no keyword sends it through the trigram lists, and the count reads the
      // bound's rows, never the keyword's trigram list over the whole table.
      const start = parameters.add(recentStart);
      if ((request.sorts ?? []).length === 0) {
        // In the default order one walk of the bound gives the page and the count (ADR 0123).
        const answered = await query<PaymentRow & { total_matches: number }>(
          latestPaymentsPageAndCountSql(
            filtersWhere,
            start,
            (payments) => paymentsWithPurchases(this.purchases, this.subscriptionPayments, payments),
            Math.max(0, limit),
            offset,
          ),
        );
        return { rows: answered.filter((row) => row.payment_id !== null), total: answered[0].total_matches };
      }
      // A chosen sort sorts every match in the bound: its page first, and the count after a full page.
      return pageFirst(await readPage(latestPaymentsRelation(start)), () =>
        latestPaymentsCountSql(filtersWhere, start),
      );
    });
    return toPage(
      rows.map((row) => toPayment(row, audience)),
      page,
      size,
      total,
      totalIsLowerBound,
    );
  }

  private async latestPaymentsStart(): Promise<Date | null> {
    const nowMs = this.clock.now().getTime();
    if (this.recentStart !== null && nowMs < this.recentStart.keptUntilMs) return this.recentStart.at;
    // The window's start may come from a replica a little behind: the window is a bound on the work, not a promise.
    const [start] = await this.reads.run(
      'payments-search',
      (db) => db.query(RECENT_PAYMENTS_START_SQL) as Promise<Array<{ created_at: Date }>>,
    );
    this.recentStart = { at: start?.created_at ?? null, keptUntilMs: nowMs + RECENT_START_KEPT_MS };
    return this.recentStart.at;
  }

  /** Staff see everyone's rows (or the named user's); customers see only their own, whatever they ask for. */
  private ownerOf(actor: SearchPaymentsQuery['actor'], userUuid: string | null): string | null {
    if (isStaffRole(actor.role)) return userUuid;
    if (userUuid !== null && userUuid !== actor.userUuid) throw new ApiError('error.user.not.found');
    return actor.userUuid;
  }
}
