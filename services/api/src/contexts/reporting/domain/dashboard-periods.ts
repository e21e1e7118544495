/** How many days the dashboard's charts cover, today included. */
export const DASHBOARD_CHART_DAYS = 30;

/** How far ahead a renewal counts as due "this week". */
export const RENEWAL_HORIZON_DAYS = 7;

/** How long a failed provisioning job or a large deposit stays in the dashboard's queue (nothing else clears them). */
export const QUEUE_WINDOW_DAYS = 7;

/** How many of each kind's latest records the queue lists. */
export const QUEUE_LATEST_ITEMS = 5;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The instants the dashboard compares, all in UTC: the calendar month of `now` and the one before it (each from its
 * first instant up to the next month's), the first instant of the chart's oldest day, the start of tomorrow (the
 * chart's end) and the end of the renewal horizon.
 */
export interface DashboardPeriods {
  lastMonthFrom: Date;
  thisMonthFrom: Date;
  nextMonthFrom: Date;
  chartFrom: Date;
  chartUntil: Date;
  renewalsUntil: Date;
  /** The oldest instant a windowed queue item (failed provisioning, large deposit) still shows from. */
  queueFrom: Date;
  /** The chart's days, oldest first, as `YYYY-MM-DD`. */
  chartDays: string[];
}

export function dashboardPeriods(now: Date): DashboardPeriods {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const today = Date.UTC(year, month, now.getUTCDate());
  const chartFrom = today - (DASHBOARD_CHART_DAYS - 1) * DAY_MS;
  return {
    lastMonthFrom: new Date(Date.UTC(year, month - 1, 1)),
    thisMonthFrom: new Date(Date.UTC(year, month, 1)),
    nextMonthFrom: new Date(Date.UTC(year, month + 1, 1)),
    chartFrom: new Date(chartFrom),
    chartUntil: new Date(today + DAY_MS),
    renewalsUntil: new Date(now.getTime() + RENEWAL_HORIZON_DAYS * DAY_MS),
    queueFrom: new Date(now.getTime() - QUEUE_WINDOW_DAYS * DAY_MS),
    chartDays: Array.from({ length: DASHBOARD_CHART_DAYS }, (_, index) =>
      new Date(chartFrom + index * DAY_MS).toISOString().slice(0, 10),
    ),
  };
}
