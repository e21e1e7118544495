import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, LIMITS, type Page, type Payment } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { ReadSource } from '../../../../platform/database/read-replica';
import { ApiError, toPage } from '../../../../platform/http';
import {
  PAYMENT_COLUMNS,
  paymentAudienceOf,
  paymentOrderBy,
  type PaymentRow,
  paymentsWithPurchases,
  paymentWhere,
  toPayment,
} from '../payment-rows/payment-query';
import { DepositPurchaseDetails } from '../payment-rows/deposit-purchase-details.port';
import { SubscriptionPaymentDetails } from '../payment-rows/subscription-payment-details.port';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { SearchPaymentsQuery } from './search-payments.query';

@QueryHandler(SearchPaymentsQuery)
export class SearchPaymentsHandler implements IQueryHandler<SearchPaymentsQuery, Page<Payment>> {
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
    const audience = paymentAudienceOf(actor.role);
    const orderBy = paymentOrderBy(request, owner);
    const parameters = new SqlParameters();
    const where = paymentWhere(request, owner, parameters, audience, this.subscriptionPayments);
    const offset = page * size;

    // An exact count of a million rows would cost far more than the page: count and page within the search window
    // (ADR 0010); beyond it `totalElements` is the window and later pages are empty.
    const counting = this.dataSource.query(
      `SELECT count(*)::int AS total FROM (SELECT 1 FROM payments p ${where} LIMIT ${LIMITS.searchWindowRows}) capped`,
      parameters.values,
    ) as Promise<Array<{ total: number }>>;
    const reading =
      offset >= LIMITS.searchWindowRows
        ? Promise.resolve([] as PaymentRow[])
        : (this.dataSource.query(
            `SELECT ${PAYMENT_COLUMNS} FROM ${paymentsWithPurchases(this.purchases, this.subscriptionPayments)} ${where} ORDER BY ${orderBy}
              LIMIT ${Math.min(size, LIMITS.searchWindowRows - offset)} OFFSET ${offset}`,
            parameters.values,
          ) as Promise<PaymentRow[]>);
    const [[{ total }], rows] = await Promise.all([counting, reading]);
    return toPage(
      rows.map((row) => toPayment(row, audience)),
      page,
      size,
      total,
    );
  }

  /** Staff see everyone's rows (or the named user's); customers see only their own, whatever they ask for. */
  private ownerOf(actor: SearchPaymentsQuery['actor'], userUuid: string | null): string | null {
    if (isStaffRole(actor.role)) return userUuid;
    if (userUuid !== null && userUuid !== actor.userUuid) throw new ApiError('error.user.not.found');
    return actor.userUuid;
  }
}
