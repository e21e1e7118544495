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
});
