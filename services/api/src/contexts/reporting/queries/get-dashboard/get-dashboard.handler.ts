import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { type DashboardQueueGroup, type DashboardQueueKind, type DashboardSummary, minorToAmount } from '@kupa/proto';
import { ReadSource } from '../../../../platform/database/read-replica';
import { Clock } from '../../../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ledgerMoneyFigures, type MoneyInPeriod, paymentAttention, voucherFigures } from '../../../ledger';
import { discountFigures, subscriptionAttention, subscriptionFigures } from '../../../subscriptions';
import { dashboardPeriods, QUEUE_LATEST_ITEMS } from '../../domain/dashboard-periods';
import { GetDashboardQuery } from './get-dashboard.query';

/**
 * Reads the figures from the ledger's and the subscriptions' read models through their contexts' queries (this
 * context owns no table) and puts them side by side. The periods are UTC calendar months and days.
 */
@QueryHandler(GetDashboardQuery)
export class GetDashboardHandler implements IQueryHandler<GetDashboardQuery, DashboardSummary> {
  constructor(
    private readonly reads: ReadSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(): Promise<DashboardSummary> {
    const periods = dashboardPeriods(this.clock.now());
    const thisMonthPeriod = { from: periods.thisMonthFrom, until: periods.nextMonthFrom };
    const windowed = { since: periods.queueFrom, latest: QUEUE_LATEST_ITEMS };
    const [months, days, subscriptions, vouchers, discounts, subscriptionQueue, paymentQueue] = await this.reads.run(
      'dashboard',
      (db) =>
        Promise.all([
          ledgerMoneyFigures(db, {
            from: periods.lastMonthFrom,
            until: periods.nextMonthFrom,
            period: 'month',
          }),
          ledgerMoneyFigures(db, { from: periods.chartFrom, until: periods.chartUntil, period: 'day' }),
          subscriptionFigures(db, periods),
          voucherFigures(db, thisMonthPeriod),
          discountFigures(db, thisMonthPeriod),
          subscriptionAttention(db, windowed),
          paymentAttention(db, { ...windowed, largeDepositMinMinor: this.config.largeDepositMinMinor }),
        ]),
    );
    const month = (from: Date) => periodOf(months, from.toISOString().slice(0, 10));
    const [thisMonth, lastMonth] = [month(periods.thisMonthFrom), month(periods.lastMonthFrom)];
    return {
      activeSubscriptions: subscriptions.active,
      revenue: { thisMonth: minorToAmount(thisMonth.revenueMinor), lastMonth: minorToAmount(lastMonth.revenueMinor) },
      deposits: {
        thisMonth: minorToAmount(thisMonth.depositsMinor),
        lastMonth: minorToAmount(lastMonth.depositsMinor),
      },
      newSubscriptions: { thisMonth: subscriptions.newThisMonth, lastMonth: subscriptions.newLastMonth },
      renewalsDueThisWeek: subscriptions.renewalsDue,
      daily: periods.chartDays.map((date) => {
        const day = periodOf(days, date);
        return { date, revenue: minorToAmount(day.revenueMinor), deposits: minorToAmount(day.depositsMinor) };
      }),
      voucherLiability: minorToAmount(vouchers.outstandingMinor),
      discountsThisMonth: {
        referral: minorToAmount(discounts.referralMinor),
        promoCode: minorToAmount(discounts.promoCodeMinor),
        voucherGiveaways: minorToAmount(vouchers.givenAwayMinor),
      },
      queue: [
        queueGroup('PROVISIONING_FAILED', subscriptionQueue.provisioningFailed),
        queueGroup('RENEWAL_FAILED', subscriptionQueue.renewalFailed),
        queueGroup('PAYMENT_REVIEW', paymentQueue.review),
        queueGroup('LARGE_DEPOSIT', paymentQueue.largeDeposits),
      ],
    };
  }
}

/** The figures of one period; a period without payments made nothing. */
function periodOf(figures: MoneyInPeriod[], period: string): MoneyInPeriod {
  return figures.find((figure) => figure.period === period) ?? { period, revenueMinor: 0, depositsMinor: 0 };
}

/** A queue kind as the dashboard answers it: dollars and ISO instants. */
function queueGroup(
  kind: DashboardQueueKind,
  group: { count: number; latest: Array<{ id: string; userEmail: string; amountMinor: number | null; at: Date }> },
): DashboardQueueGroup {
  return {
    kind,
    count: group.count,
    latest: group.latest.map((item) => ({
      id: item.id,
      userEmail: item.userEmail,
      amount: item.amountMinor === null ? null : minorToAmount(item.amountMinor),
      at: item.at.toISOString(),
    })),
  };
}
