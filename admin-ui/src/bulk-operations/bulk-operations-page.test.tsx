import { type BulkBatch } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { BulkOperationsPage, requestOf } from './bulk-operations-page';

const RUNNING: BulkBatch = {
  id: '66666666-6666-4666-8666-666666666666',
  action: 'ADD_DAYS',
  targetKind: 'SUBSCRIPTION',
  filter: { statuses: ['ACTIVE'] },
  reason: 'Outage',
  publicNote: null,
  amount: null,
  days: 2,
  status: 'RUNNING',
  targetCount: 12,
  doneCount: 0,
  failedCount: 0,
  startedAt: '2026-11-29T10:00:00.000Z',
  startedBy: 'admin@example.com',
  completedAt: null,
};

const FORM = {
  action: 'ADD_DAYS' as const,
  keyWord: '',
  status: '',
  reason: ' Outage ',
  publicNote: '',
  amount: '',
  days: '2',
};

describe('bulk operations page', () => {
  it('sends subscriptions filters for add days and client filters for the others; no filter means all active', () => {
    expect(requestOf(FORM)).toEqual({ action: 'ADD_DAYS', reason: 'Outage', days: 2 });
    expect(requestOf({ ...FORM, status: 'GRACE' }).subscriptionFilter).toEqual({ statuses: ['GRACE'] });
    expect(requestOf({ ...FORM, action: 'GOODWILL_CREDIT', keyWord: ' dana ', amount: '2.5' })).toEqual({
      action: 'GOODWILL_CREDIT',
      reason: 'Outage',
      filter: { keyWord: 'dana', statuses: ['ACTIVE'] },
      amount: 2.5,
    });
    expect(requestOf({ ...FORM, action: 'BLOCK' })).toEqual({ action: 'BLOCK', reason: 'Outage' });
  });

  it("translates the lists' further filters as the lists do: role and registration, type, duration, dates, price", () => {
    const clients = requestOf({
      ...FORM,
      action: 'BLOCK',
      status: 'BLOCKED',
      roles: 'AMBASSADOR',
      registrationDateFrom: '2026-01-01',
    });
    expect(clients.filter).toMatchObject({ statuses: ['BLOCKED'], roles: ['AMBASSADOR'] });
    expect(clients.filter?.registrationDate).toMatchObject({ from: expect.stringMatching(/^2026-01-01|^2025-12-31/) });
    expect(clients.subscriptionFilter).toBeUndefined();
    const subscriptions = requestOf({
      ...FORM,
      types: 'TRIAL',
      durationsInMonths: '12',
      endDateTo: '2026-12-31',
      priceFrom: '5',
      roles: 'AMBASSADOR',
    });
    expect(subscriptions.subscriptionFilter).toMatchObject({
      statuses: ['ACTIVE'],
      types: ['TRIAL'],
      durationsInMonths: [12],
      price: { from: 5 },
    });
    expect(subscriptions.subscriptionFilter?.endDate).toBeDefined();
    expect(subscriptions.filter).toBeUndefined();
  });

  it('asks for the count again when a filter changes, without a click', async () => {
    signInAs('ADMIN');
    const { calls } = mockFetch({
      'GET /api/bulk-operations': () => json(200, { items: [] }),
      'POST /api/bulk-operations/preview': () =>
        json(200, { action: 'ADD_DAYS', targetKind: 'SUBSCRIPTION', total: 3, sample: [] }),
    });
    const user = userEvent.setup();
    renderInAdmin(<BulkOperationsPage />, { withAuth: true, lang: 'en' });
    await screen.findByText('3 targets match');
    await user.type(screen.getByTestId('bulk-priceFrom'), '5');
    await waitFor(() =>
      expect(
        calls.some(
          (call) =>
            call.url === '/api/bulk-operations/preview' && JSON.stringify(call.body).includes('"price":{"from":5}'),
        ),
      ).toBe(true),
    );
  });

  it('previews the count and first targets, confirms naming the count, follows the progress to the results', async () => {
    signInAs('ADMIN');
    let polls = 0;
    const { calls } = mockFetch({
      'GET /api/bulk-operations': () => json(200, { items: [] }),
      'POST /api/bulk-operations/preview': () =>
        json(200, {
          action: 'ADD_DAYS',
          targetKind: 'SUBSCRIPTION',
          total: 12,
          sample: [{ id: 'a1', label: 'dana@example.com' }],
        }),
      'POST /api/bulk-operations': () => json(201, RUNNING),
      [`GET /api/bulk-operations/${RUNNING.id}`]: () => {
        polls += 1;
        return json(200, { ...RUNNING, status: 'COMPLETED', doneCount: 11, failedCount: 1 });
      },
    });
    const user = userEvent.setup();
    renderInAdmin(<BulkOperationsPage />, { withAuth: true, lang: 'en' });
    await user.type(await screen.findByTestId('bulk-reason'), 'Outage');
    await user.clear(screen.getByTestId('bulk-days'));
    await user.type(screen.getByTestId('bulk-days'), '2');
    await user.click(screen.getByTestId('bulk-preview'));
    const preview = await screen.findByTestId('bulk-preview-result');
    expect(preview).toHaveTextContent('12 targets match');
    expect(preview).toHaveTextContent('dana@example.com');
    expect(screen.getByTestId('bulk-confirm')).toHaveTextContent('Add days: run on 12 targets');
    await user.click(screen.getByTestId('bulk-confirm'));
    const started = calls.find((call) => call.method === 'POST' && call.url === '/api/bulk-operations');
    expect(started?.body).toEqual({ action: 'ADD_DAYS', reason: 'Outage', days: 2 });
    expect(started?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('bulk-counts')).toHaveTextContent('11 done, 1 failed, of 12'), {
      timeout: 3000,
    });
    expect(polls).toBeGreaterThan(0);
    expect(screen.getByText('Results (CSV)')).toBeInTheDocument();
    // The batch's activity: the log filtered by its id, which finds its targets' entries too (ADR 0090).
    expect(decodeURIComponent(screen.getByTestId('bulk-activity').getAttribute('href') ?? '')).toContain(
      `/activity-log?filter={"targetAndParentIds":"${RUNNING.id}"}`,
    );
  });
});
