import { type DashboardSummary } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { isolateLtr } from '../shared/ltr';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { Dashboard } from '.';
import { formatPercentChange, percentChange } from './figures';

/** 30 days ending 15 March 2026, oldest first, with money on a few of them. */
function days(money: Record<string, { revenue?: number; deposits?: number }> = {}): DashboardSummary['daily'] {
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2026, 1, 14 + index)).toISOString().slice(0, 10);
    return { date, revenue: money[date]?.revenue ?? 0, deposits: money[date]?.deposits ?? 0 };
  });
}

const SUMMARY: DashboardSummary = {
  activeSubscriptions: 1234,
  revenue: { thisMonth: 24.98, lastMonth: 29.99 },
  deposits: { thisMonth: 150.5, lastMonth: 120 },
  newSubscriptions: { thisMonth: 4, lastMonth: 2 },
  renewalsDueThisWeek: 3,
  daily: days({
    '2026-02-14': { deposits: 20 },
    '2026-03-02': { deposits: 40.5, revenue: 9.99 },
    '2026-03-14': { revenue: -5 },
  }),
  voucherLiability: 35,
  discountsThisMonth: { referral: 0.5, promoCode: 2.5, voucherGiveaways: 15 },
  queue: [
    { kind: 'PROVISIONING_FAILED', count: 0, latest: [] },
    {
      kind: 'RENEWAL_FAILED',
      count: 7,
      latest: [{ id: 'sub-1', userEmail: 'dana@example.com', amount: null, at: '2026-03-16T00:00:00Z' }],
    },
    { kind: 'PAYMENT_REVIEW', count: 0, latest: [] },
    {
      kind: 'LARGE_DEPOSIT',
      count: 1,
      latest: [{ id: '42', userEmail: 'noa@example.com', amount: 1500, at: '2026-03-14T09:00:00Z' }],
    },
  ],
};

const EMPTY: DashboardSummary = {
  activeSubscriptions: 0,
  revenue: { thisMonth: 0, lastMonth: 0 },
  deposits: { thisMonth: 12, lastMonth: 0 },
  newSubscriptions: { thisMonth: 0, lastMonth: 0 },
  renewalsDueThisWeek: 0,
  daily: days(),
  voucherLiability: 0,
  discountsThisMonth: { referral: 0, promoCode: 0, voucherGiveaways: 0 },
  queue: [],
};

function renderDashboard(summary: DashboardSummary, lang: 'he' | 'en' = 'en') {
  signInAs('ADMIN');
  const mock = mockFetch({ 'GET /api/dashboard': () => json(200, summary) });
  renderInAdmin(<Dashboard />, { withAuth: true, lang });
  return mock;
}

describe('percent change', () => {
  it('is the change against last month, "new" (null) when last month had nothing, 0 when neither had', () => {
    expect(percentChange(150, 120)).toBe(25);
    expect(percentChange(24.98, 29.99)).toBeCloseTo(-16.71, 2);
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(0, 0)).toBe(0);
    // Against a negative month (refunds), a rise is still a rise.
    expect(percentChange(10, -10)).toBe(200);
    expect(formatPercentChange(25, 'en')).toBe('+25%');
    expect(formatPercentChange(-16.71, 'he')).toBe('-16.7%');
  });
});

describe('the dashboard', () => {
  it("shows an admin this month's figures against last month's, with the change in percent", async () => {
    const { calls } = renderDashboard(SUMMARY);

    expect(await screen.findByTestId('dashboard-active-value', {}, { timeout: 10000 })).toHaveTextContent('1,234');
    const revenue = screen.getByTestId('dashboard-revenue');
    expect(within(revenue).getByTestId('dashboard-revenue-value').querySelector('bdi')).toHaveTextContent(
      formatAmount(24.98, 'en'),
    );
    expect(within(revenue).getByTestId('dashboard-revenue-last')).toHaveTextContent(formatAmount(29.99, 'en'));
    expect(screen.getByTestId('dashboard-revenue-change')).toHaveTextContent('-16.7%');
    expect(screen.getByTestId('dashboard-deposits-change')).toHaveTextContent('+25.4%');
    expect(screen.getByTestId('dashboard-new-value')).toHaveTextContent('4');
    expect(screen.getByTestId('dashboard-new-change')).toHaveTextContent('+100%');
    expect(screen.getByTestId('dashboard-renewals-value')).toHaveTextContent('3');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/dashboard']);
  });

  it('queues what needs a person by kind, with counts, and links each item to its record', async () => {
    renderDashboard(SUMMARY);
    const queue = await screen.findByTestId('dashboard-queue', {}, { timeout: 10000 });
    expect(within(queue).getByText('Needs a person')).toBeVisible();
    expect(screen.getByTestId('dashboard-queue-RENEWAL_FAILED-count')).toHaveTextContent('7');
    expect(
      within(screen.getByTestId('dashboard-queue-PROVISIONING_FAILED')).getByText('Nothing waiting.'),
    ).toBeVisible();
    const [renewal, deposit] = within(queue).getAllByTestId('dashboard-queue-item');
    expect(renewal).toHaveAttribute('href', expect.stringContaining('/subscriptions/sub-1/show'));
    expect(deposit).toHaveAttribute('href', expect.stringContaining('/payments/42/show'));
    expect(
      within(screen.getByTestId('dashboard-queue-LARGE_DEPOSIT')).getByText(formatAmount(1500, 'en')),
    ).toBeVisible();
  });

  it('marks a large deposit seen, and reads the queue again without it', async () => {
    signInAs('ADMIN');
    let acknowledged = false;
    const cleared: DashboardSummary = {
      ...SUMMARY,
      queue: SUMMARY.queue.map((group) =>
        group.kind === 'LARGE_DEPOSIT' ? { ...group, count: 0, latest: [] } : group,
      ),
    };
    const { calls } = mockFetch({
      'GET /api/dashboard': () => json(200, acknowledged ? cleared : SUMMARY),
      'POST /api/payments/42/large-deposit-acknowledgement': () => {
        acknowledged = true;
        return new Response(null, { status: 204 });
      },
    });
    renderInAdmin(<Dashboard />, { withAuth: true, lang: 'en', notifications: true });
    const deposits = await screen.findByTestId('dashboard-queue-LARGE_DEPOSIT', {}, { timeout: 10000 });
    // Only a large deposit has the button: a failed renewal is cleared by acting on it.
    expect(within(screen.getByTestId('dashboard-queue-RENEWAL_FAILED')).queryByRole('button')).toBeNull();
    await userEvent.setup().click(within(deposits).getByRole('button', { name: 'Mark as seen' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('dashboard-queue-LARGE_DEPOSIT')).getByText('Nothing waiting.')).toBeVisible(),
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(await screen.findByText('Marked as seen: it left the queue')).toBeVisible();
  });

  it("shows what the vouchers still owe and the month's discounts by kind, with their total", async () => {
    renderDashboard(SUMMARY);
    const vouchers = await screen.findByTestId('dashboard-vouchers', {}, { timeout: 10000 });
    expect(within(vouchers).getByText('Vouchers still owed')).toBeVisible();
    expect(within(vouchers).getByTestId('dashboard-vouchers-value')).toHaveTextContent(formatAmount(35, 'en'));
    expect(screen.getByTestId('dashboard-discounts-value')).toHaveTextContent(formatAmount(18, 'en'));
    expect(screen.getByTestId('dashboard-discount-referral')).toHaveTextContent(
      `Referral discounts${formatAmount(0.5, 'en')}`,
    );
    expect(screen.getByTestId('dashboard-discount-promo_code')).toHaveTextContent(
      `Promo codes${formatAmount(2.5, 'en')}`,
    );
    expect(screen.getByTestId('dashboard-discount-voucher_giveaways')).toHaveTextContent(
      `Vouchers given away${formatAmount(15, 'en')}`,
    );
  });

  it('charts 30 days of revenue and deposits with an accessible name, summary and table, refunds below zero', async () => {
    renderDashboard(SUMMARY);

    const chart = await screen.findByTestId('dashboard-deposits-chart', {}, { timeout: 10000 });
    expect(within(chart).getByRole('img', { name: 'Deposits per day, last 30 days' })).toBeVisible();
    expect(within(chart).getAllByTestId('dashboard-deposits-chart-day')).toHaveLength(30);
    expect(within(chart).getByTestId('dashboard-deposits-chart-summary')).toHaveTextContent(
      `${isolateLtr(formatAmount(60.5, 'en'))} in 30 days; the best day was March 2 with ${isolateLtr(formatAmount(40.5, 'en'))}.`,
    );
    expect(within(chart).getByRole('table')).toHaveTextContent(`February 14${formatAmount(20, 'en')}`);
    const revenue = screen.getByTestId('dashboard-revenue-chart');
    const refundDay = within(revenue)
      .getAllByTestId('dashboard-revenue-chart-day')
      .find((day) => day.getAttribute('data-date') === '2026-03-14');
    expect(refundDay?.querySelector('rect')?.getAttribute('fill')).not.toBe(
      within(revenue)
        .getAllByTestId('dashboard-revenue-chart-day')
        .find((day) => day.getAttribute('data-date') === '2026-03-02')
        ?.querySelector('rect')
        ?.getAttribute('fill'),
    );
  });

  it('runs time in the reading direction: today at the right in English, at the left in Hebrew', async () => {
    const xOf = (chart: HTMLElement, date: string) =>
      Number(
        within(chart)
          .getAllByTestId('dashboard-deposits-chart-day')
          .find((day) => day.getAttribute('data-date') === date)
          ?.getAttribute('data-x'),
      );
    renderDashboard(SUMMARY, 'en');
    const english = await screen.findByTestId('dashboard-deposits-chart', {}, { timeout: 10000 });
    expect(xOf(english, '2026-02-14')).toBeLessThan(xOf(english, '2026-03-15'));
    // Amounts on the axis stay left to right in either language.
    for (const tick of within(english).getAllByTestId('dashboard-deposits-chart-tick'))
      expect(tick.getAttribute('direction')).toBe('ltr');
    document.body.innerHTML = '';

    renderDashboard(SUMMARY, 'he');
    const hebrew = await screen.findByTestId('dashboard-deposits-chart', {}, { timeout: 10000 });
    expect(xOf(hebrew, '2026-02-14')).toBeGreaterThan(xOf(hebrew, '2026-03-15'));
    expect(within(hebrew).getByRole('img', { name: 'הפקדות ליום, 30 הימים האחרונים' })).toBeVisible();
  });

  it('shows an empty month as zeros with no change, "new" against an empty last month, and empty charts', async () => {
    renderDashboard(EMPTY);

    expect(await screen.findByTestId('dashboard-active-value', {}, { timeout: 10000 })).toHaveTextContent('0');
    expect(screen.getByTestId('dashboard-revenue-change')).toHaveTextContent('0%');
    expect(screen.getByTestId('dashboard-revenue-value').querySelector('bdi')).toHaveTextContent(formatAmount(0, 'en'));
    expect(screen.getByTestId('dashboard-deposits-change')).toHaveTextContent('New: nothing last month');
    expect(screen.getByTestId('dashboard-revenue-chart-summary')).toHaveTextContent('Nothing in the last 30 days.');
    expect(screen.getByTestId('dashboard-revenue-chart').querySelectorAll('rect')).toHaveLength(0);
  });

  it('says why when the figures cannot be read', async () => {
    signInAs('ADMIN');
    mockFetch({
      'GET /api/dashboard': () => json(503, { status: 503, error: 'error.internal.server.error', message: 'x' }),
    });
    renderInAdmin(<Dashboard />, { withAuth: true, lang: 'en' });
    expect(await screen.findByTestId('dashboard-error', {}, { timeout: 10000 })).toBeVisible();
  });

  it('sends a manager to the clients list without asking for the figures', async () => {
    signInAs('MANAGER');
    const { calls } = mockFetch({});
    let location = '';
    renderInAdmin(<Dashboard />, { withAuth: true, lang: 'en', onLocation: (pathname) => (location = pathname) });
    await waitFor(() => expect(location).toBe('/admin/clients'));
    expect(calls.filter((call) => call.url === '/api/dashboard')).toEqual([]);
  });
});
