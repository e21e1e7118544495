import { enumLabel, formatErrorMessage, SORTABLE_COLUMNS } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch, type RecordedCall } from '../test/fetch-mock';
import { CLIENT, SUBSCRIPTION } from '../test/fixtures';
import {
  lastSearchBody,
  listPathShowing,
  pickOptions,
  sentSortIds,
  sortsSentByEachColumn,
} from '../test/list-interactions';
import { renderInAdmin } from '../test/render-admin';
import { SubscriptionList } from './subscription-list';

const trial = {
  ...SUBSCRIPTION,
  id: '7c1e2a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
  paymentPlan: null,
  price: 0,
  type: 'TRIAL_FOR_NEW_USERS',
  status: 'PENDING',
  durationInMonth: 1,
  isRecurrent: false,
  startDate: null,
  endDate: null,
  login: 'dana.trial',
};

const page = (content: unknown[]) =>
  json(200, { content, page: 0, size: 20, totalElements: content.length, totalPages: 1 });
const searches = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/subscriptions/search');

function renderList(lang: 'he' | 'en' = 'he', path = '/admin') {
  return renderInAdmin(<SubscriptionList />, { resource: 'subscriptions', lang, path });
}

describe('subscriptions list', () => {
  it('shows each subscription with its package (or "Trial"), status, type, duration and price, newest first', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION, trial]) });
    renderList();

    const rows = await screen.findAllByTestId('subscriptions-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual([SUBSCRIPTION.id, trial.id]);
    const first = within(rows[0]);
    expect(first.getByText('Gold')).toBeVisible();
    expect(first.getByText('dana@example.com')).toBeVisible();
    expect(first.getByText(enumLabel('subscriptionStatus', 'ACTIVE', 'he'))).toBeVisible();
    expect(first.getByText(enumLabel('planDuration', 3, 'he'))).toBeVisible();
    expect(rows[0].querySelector('bdi[data-amount="29.99"]')?.textContent).toBe(formatAmount(29.99, 'he'));
    const second = within(rows[1]);
    expect(second.getByText('ניסיון')).toBeVisible();
    expect(second.getByText(enumLabel('subscriptionType', 'TRIAL_FOR_NEW_USERS', 'he'))).toBeVisible();
    expect(searches(calls)[0].body).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
  });

  it('says a cancelled one is cancelled, not a plain "Active", and gives a trial its days, not "0"', async () => {
    const cancelled = { ...SUBSCRIPTION, cancelAtPeriodEnd: true, nextPaymentDate: null };
    const runningTrial = { ...trial, status: 'ACTIVE', durationInMonth: 0 };
    mockFetch({ 'POST /api/subscriptions/search': () => page([cancelled, runningTrial]) });
    renderList('en');

    const rows = await screen.findAllByTestId('subscriptions-row');
    const status = rows[0].querySelector('[data-value="CANCELLING"]');
    expect(status?.textContent).toBe('Cancelled, active to end');
    expect(status).toHaveAttribute('data-intent', 'warning');
    expect(within(rows[0]).queryByText(enumLabel('subscriptionStatus', 'ACTIVE', 'en'))).toBeNull();
    expect(within(rows[1]).getByText(enumLabel('subscriptionStatus', 'ACTIVE', 'en'))).toBeVisible();
    expect(within(rows[1]).getByText('3 days')).toBeVisible();
    expect(within(rows[1]).queryByText('0')).toBeNull();
  });

  it('filters by id, status, type and duration', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION]) });
    const user = userEvent.setup();
    renderList('en', listPathShowing(['types', 'durationsInMonths']));
    await screen.findAllByTestId('subscriptions-row');

    await user.type(screen.getByTestId('subscriptions-id-filter'), '5b0f8a52');
    await waitFor(() => expect(lastSearchBody(searches(calls)).ids).toEqual(['5b0f8a52']));
    await pickOptions(user, 'Statuses', [enumLabel('subscriptionStatus', 'CANCELED', 'en')]);
    await pickOptions(user, 'Types', [enumLabel('subscriptionType', 'REGULAR', 'en')]);
    await pickOptions(user, 'Durations', [enumLabel('planDuration', 12, 'en'), enumLabel('planDuration', 1, 'en')]);
    await waitFor(() =>
      expect(lastSearchBody(searches(calls))).toMatchObject({
        ids: ['5b0f8a52'],
        statuses: ['CANCELED'],
        types: ['REGULAR'],
        durationsInMonths: [12, 1],
      }),
    );
  });

  it('filters by price bounds and refuses a bound that is not a price', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION]) });
    const user = userEvent.setup();
    renderList('en', listPathShowing(['priceFrom', 'priceTo']));
    await screen.findAllByTestId('subscriptions-row');

    await user.type(screen.getByTestId('subscriptions-price-from'), '5');
    await user.type(screen.getByTestId('subscriptions-price-to'), '30');
    await waitFor(() => expect(lastSearchBody(searches(calls)).price).toEqual({ from: 5, to: 30 }));
    await user.clear(screen.getByTestId('subscriptions-price-to'));
    await user.type(screen.getByTestId('subscriptions-price-to'), 'abc');
    expect(await screen.findByText(formatErrorMessage('error.validation.invalid.input', 'en'))).toBeVisible();
  });

  it('filters by start, end and creation dates, each bound a whole local day', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION]) });
    const filter = {
      startDateFrom: '2026-03-01',
      startDateTo: '2026-03-31',
      endDateFrom: '2026-04-01',
      endDateTo: '2026-06-30',
      createdAtFrom: '2026-02-01',
      createdAtTo: '2026-02-28',
    };
    renderList('en', `/admin?${new URLSearchParams({ filter: JSON.stringify(filter) })}`);
    await screen.findAllByTestId('subscriptions-row');

    // Each date filter is shown with its label, holding the day the address gave it.
    for (const label of ['Starts from', 'Starts until', 'Ends from', 'Ends until', 'Created from', 'Created until'])
      expect(screen.getByLabelText(label)).toBeVisible();
    const day = (date: string, time: string) => new Date(`${date}T${time}`).toISOString();
    expect(lastSearchBody(searches(calls))).toMatchObject({
      startDate: { from: day('2026-03-01', '00:00:00.000'), to: day('2026-03-31', '23:59:59.999') },
      endDate: { from: day('2026-04-01', '00:00:00.000'), to: day('2026-06-30', '23:59:59.999') },
      createdAt: { from: day('2026-02-01', '00:00:00.000'), to: day('2026-02-28', '23:59:59.999') },
    });
  });

  it('filters by client, looked up by a keyword in the clients search', async () => {
    const { calls } = mockFetch({
      'POST /api/subscriptions/search': () => page([SUBSCRIPTION]),
      'POST /api/users/search': () => page([CLIENT]),
      'GET /api/users/u-1': () => json(200, CLIENT),
    });
    const user = userEvent.setup();
    renderList('en', listPathShowing(['userUuid']));
    await screen.findAllByTestId('subscriptions-row');

    await user.type(screen.getByRole('combobox', { name: 'Client' }), 'dana');
    await waitFor(() =>
      expect(
        calls.some(
          (call) => call.url === '/api/users/search' && (call.body as { keyWord?: string }).keyWord === 'dana',
        ),
      ).toBe(true),
    );
    await user.click(await screen.findByRole('option', { name: 'dana@example.com' }));
    await waitFor(() => expect(lastSearchBody(searches(calls)).userUuid).toBe('u-1'));
  });

  it('sorts by exactly the columns the search sorts by', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION, trial]) });
    renderList('en');
    await screen.findAllByTestId('subscriptions-row');

    expect(await sortsSentByEachColumn(calls)).toEqual({
      Client: [{ id: 'userEmail', desc: false }],
      Status: [{ id: 'status', desc: false }],
      Type: [{ id: 'type', desc: false }],
      Duration: [{ id: 'durationInMonth', desc: false }],
      Price: [{ id: 'price', desc: false }],
      Start: [{ id: 'startDate', desc: false }],
      End: [{ id: 'endDate', desc: false }],
      Created: [{ id: 'createdAt', desc: false }],
    });
    expect([...sentSortIds(calls)].sort()).toEqual([...SORTABLE_COLUMNS.subscriptions].sort());
  });
});
