import { type VoucherBatch } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { VoucherBatchesPage } from './voucher-batches-page';

const BATCH: VoucherBatch = {
  id: '44444444-4444-4444-8444-444444444444',
  label: 'Winter fair',
  kind: 'MONEY',
  count: 3,
  amount: 15,
  days: null,
  planId: null,
  planName: null,
  funding: null,
  fundedAt: null,
  fundingComment: null,
  redeemedCount: 0,
  outstanding: 0,
  createdAt: '2026-11-29T10:00:00.000Z',
  createdBy: 'admin@example.com',
};

describe('vouchers page', () => {
  it('lists batches with what they owe, generates a batch and shows its codes, and records a batch as sold', async () => {
    signInAs('ADMIN');
    let batches: VoucherBatch[] = [BATCH];
    const { calls } = mockFetch({
      'GET /api/vouchers/batches': () => json(200, { items: batches, outstandingTotal: 30 }),
      'POST /api/vouchers/batches': () => {
        const created = { ...BATCH, id: '55555555-5555-4555-8555-555555555555', label: 'Shop', count: 2, amount: 10 };
        batches = [created, ...batches];
        return json(201, { batch: created, codes: ['ABCD-EFGH-JKMN-PQRS', 'BCDE-FGHJ-KMNP-QRST'] });
      },
      [`POST /api/vouchers/batches/${BATCH.id}/funding`]: () =>
        json(200, { ...BATCH, funding: 'SOLD', outstanding: 45 }),
    });
    const user = userEvent.setup();
    renderInAdmin(<VoucherBatchesPage />, { withAuth: true, lang: 'en' });

    expect(await screen.findByTestId('vouchers-outstanding-total')).toHaveTextContent('$30.00');
    const row = await screen.findByTestId(`voucher-batch-${BATCH.id}`);
    expect(row).toHaveTextContent('Winter fair');
    expect(row).toHaveTextContent('Not yet sold or given');

    await user.click(screen.getByTestId('vouchers-generate-open'));
    await user.type(screen.getByTestId('vouchers-label'), 'Shop');
    await user.clear(screen.getByTestId('vouchers-count'));
    await user.type(screen.getByTestId('vouchers-count'), '2');
    await user.type(screen.getByTestId('vouchers-amount'), '10');
    await user.click(screen.getByTestId('vouchers-generate'));
    const codes = await screen.findByTestId('vouchers-codes');
    expect(within(codes).getByText('ABCD-EFGH-JKMN-PQRS')).toBeInTheDocument();
    const generate = calls.find((call) => call.method === 'POST' && call.url === '/api/vouchers/batches');
    expect(generate?.body).toEqual({ label: 'Shop', count: 2, amount: 10 });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    await user.click(within(await screen.findByTestId(`voucher-batch-${BATCH.id}`)).getByText('Record as sold'));
    await user.type(screen.getByTestId('vouchers-fund-comment'), 'cash at the fair');
    await user.click(screen.getByTestId('vouchers-fund'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === `/api/vouchers/batches/${BATCH.id}/funding`)?.body).toEqual({
        funding: 'SOLD',
        comment: 'cash at the fair',
      }),
    );
  });

  it('asks for a batch name and a funding comment before sending, rather than showing the API refusal', async () => {
    signInAs('ADMIN');
    const { calls } = mockFetch({
      'GET /api/vouchers/batches': () => json(200, { items: [BATCH], outstandingTotal: 0 }),
    });
    const user = userEvent.setup();
    renderInAdmin(<VoucherBatchesPage />, { withAuth: true, lang: 'en' });

    await user.click(await screen.findByTestId('vouchers-generate-open'));
    expect(screen.getByTestId('vouchers-label')).toBeRequired();
    await user.type(screen.getByTestId('vouchers-amount'), '10');
    expect(screen.getByTestId('vouchers-generate')).toBeDisabled();
    await user.type(screen.getByTestId('vouchers-label'), 'Shop');
    expect(screen.getByTestId('vouchers-generate')).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await user.click(within(await screen.findByTestId(`voucher-batch-${BATCH.id}`)).getByText('Record as sold'));
    expect(screen.getByTestId('vouchers-fund-comment')).toBeRequired();
    expect(screen.getByTestId('vouchers-fund')).toBeDisabled();
    await user.type(screen.getByTestId('vouchers-fund-comment'), '   ');
    expect(screen.getByTestId('vouchers-fund')).toBeDisabled();
    await user.type(screen.getByTestId('vouchers-fund-comment'), 'cash');
    expect(screen.getByTestId('vouchers-fund')).toBeEnabled();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('generates a day batch of a package on sale, and records its sale with the amount received', async () => {
    signInAs('ADMIN');
    const dayBatch: VoucherBatch = {
      ...BATCH,
      id: '66666666-6666-4666-8666-666666666666',
      label: 'Hanukkah gift',
      kind: 'DAYS',
      amount: 0,
      days: 30,
      planId: '77777777-7777-4777-8777-777777777777',
      planName: 'Gold',
    };
    const gold = { id: dayBatch.planId, name: 'Gold' };
    const { calls } = mockFetch({
      'GET /api/vouchers/batches': () => json(200, { items: [dayBatch], outstandingTotal: 0 }),
      'POST /api/payment-plans/search': () =>
        json(200, { content: [gold], page: 0, size: 100, totalElements: 1, totalPages: 1 }),
      'POST /api/vouchers/batches': () => json(201, { batch: dayBatch, codes: ['ABCD-EFGH-JKMN-PQRS'] }),
      [`POST /api/vouchers/batches/${dayBatch.id}/funding`]: () => json(200, { ...dayBatch, funding: 'SOLD' }),
    });
    const user = userEvent.setup();
    renderInAdmin(<VoucherBatchesPage />, { withAuth: true, lang: 'en' });

    expect(await screen.findByTestId(`voucher-batch-${dayBatch.id}`)).toHaveTextContent('30 days of Gold');
    await user.click(screen.getByTestId('vouchers-generate-open'));
    await user.type(screen.getByTestId('vouchers-label'), 'Hanukkah gift');
    await user.clear(screen.getByTestId('vouchers-count'));
    await user.type(screen.getByTestId('vouchers-count'), '5');
    await user.click(screen.getByRole('radio', { name: 'Days of a package' }));
    expect(screen.queryByTestId('vouchers-amount')).toBeNull();
    // No package chosen yet: the API would refuse, so the button waits.
    expect(screen.getByTestId('vouchers-generate')).toBeDisabled();
    await user.clear(screen.getByTestId('vouchers-days'));
    await user.type(screen.getByTestId('vouchers-days'), '30');
    await user.click(await screen.findByRole('combobox', { name: /Package/ }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Gold' }));
    await user.click(screen.getByTestId('vouchers-generate'));
    expect(await screen.findByTestId('vouchers-codes')).toHaveTextContent('ABCD-EFGH-JKMN-PQRS');
    const generate = calls.find((call) => call.method === 'POST' && call.url === '/api/vouchers/batches');
    expect(generate?.body).toEqual({ label: 'Hanukkah gift', count: 5, kind: 'DAYS', days: 30, planId: gold.id });
    await user.click(screen.getByRole('button', { name: 'Close' }));

    await user.click(within(await screen.findByTestId(`voucher-batch-${dayBatch.id}`)).getByText('Record as sold'));
    await user.type(screen.getByTestId('vouchers-fund-comment'), 'community centre, bank transfer');
    expect(screen.getByTestId('vouchers-fund')).toBeDisabled();
    await user.type(screen.getByTestId('vouchers-fund-amount'), '120');
    await user.click(screen.getByTestId('vouchers-fund'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === `/api/vouchers/batches/${dayBatch.id}/funding`)?.body).toEqual({
        funding: 'SOLD',
        comment: 'community centre, bank transfer',
        amount: 120,
      }),
    );
  });
});
