import { enumLabel, formatErrorMessage, paymentKeywordBoundText } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { sentSortIds, sortsSentByEachColumn } from '../test/list-interactions';
import { onAPhone } from '../test/phone';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PaymentList } from './payment-list';

const rows = [
  {
    paymentId: 7,
    userUuid: 'u-1',
    userEmail: 'dana@example.com',
    amount: 1234.5,
    currency: 'USD',
    status: 'PENDING',
    method: 'CRYPTO_BTC',
    type: 'DEPOSIT',
    aggregator: 'CASHIER',
    createdAt: '2026-03-01T10:00:00Z',
  },
  {
    paymentId: 8,
    userUuid: 'u-2',
    userEmail: 'noa@example.com',
    amount: 20,
    currency: 'USD',
    status: 'SUCCESS',
    method: 'BALANCE',
    type: 'TRANSFER_OUT',
    aggregator: 'INTERNAL_BALANCE',
    createdAt: '2026-03-02T10:00:00Z',
  },
];

/**
 * The sort ids `POST /api/payments/search` accepts (SORT_COLUMNS of services/api/src/contexts/ledger/queries/
 * payment-rows/payment-query.ts); it answers any other id with a 400.
 */
const API_SORT_IDS = ['createdAt', 'amount', 'status', 'type', 'method', 'aggregator', 'paymentId', 'userEmail'];

/**
 * Two payments held for review (ADR 0058) beside an ordinary one: a card checkout reported paid in another currency,
 * and a crypto deposit whose dollars went above the per-payment maximum.
 */
const heldRows = [
  {
    ...rows[0],
    paymentId: 11,
    amount: 25,
    status: 'REVIEW',
    method: 'CARD',
    aggregator: 'STRIPE',
    card: { reported: { currency: 'eur', amount: 25 } },
  },
  {
    ...rows[0],
    paymentId: 12,
    amount: 800,
    status: 'REVIEW',
    method: 'CRYPTO_ETH',
    cashier: { amountAsked: 800, amountReceived: 0, amountHeld: 5000 },
  },
  rows[1],
];

const searchAnswer = () => json(200, { content: rows, page: 0, size: 20, totalElements: 2, totalPages: 1 });
const renderList = () => renderInAdmin(<PaymentList />, { resource: 'payments' });

beforeEach(() => signInAs('ADMIN'));

describe('payments list', () => {
  it('says "more than" and pages on when the total is a lower bound (a keyword within dates, ADR 0125)', async () => {
    const full = Array.from({ length: 20 }, (_, index) => ({ ...rows[1], paymentId: 100 - index }));
    mockFetch({
      'POST /api/payments/search': () =>
        json(200, { content: full, page: 0, size: 20, totalElements: 5001, totalPages: 251, totalIsLowerBound: true }),
    });
    renderList();

    expect(await screen.findAllByTestId('payments-row')).toHaveLength(20);
    expect(await screen.findByText('1–20 מתוך יותר מ-20')).toBeInTheDocument();
    expect(screen.queryByText(/5001|5,001/)).not.toBeInTheDocument();
  });

  it('shows Hebrew labels, signed amounts isolated in bdi and status badges by meaning, newest first', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': searchAnswer });
    renderList();

    const found = await screen.findAllByTestId('payments-row');
    expect(found).toHaveLength(2);
    const first = within(found[0]);
    expect(first.getByText(enumLabel('paymentStatus', 'PENDING', 'he'))).toBeVisible();
    expect(first.getByText(enumLabel('paymentMethod', 'CRYPTO_BTC', 'he'))).toBeVisible();
    expect(first.getByText(enumLabel('paymentAggregator', 'CASHIER', 'he'))).toBeVisible();
    // A pending deposit is signed by its direction but muted: it is not in the balance yet.
    const amount = found[0].querySelector('bdi[data-amount="1234.5"]');
    expect(amount?.textContent).toBe(`+${formatAmount(1234.5, 'he')}`);
    expect(amount).toHaveAttribute('data-state', 'pending');
    expect(
      within(found[0])
        .getByText(enumLabel('paymentStatus', 'PENDING', 'he'))
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorWarning');
    // A successful transfer out is minus and red, its badge green.
    expect(within(found[1]).getByText(enumLabel('paymentType', 'TRANSFER_OUT', 'he'))).toBeVisible();
    const out = found[1].querySelector('bdi[data-amount="20"]');
    expect(out?.textContent).toBe(formatAmount(-20, 'he'));
    expect(out).toHaveAttribute('data-intent', 'error');
    expect(
      within(found[1])
        .getByText(enumLabel('paymentStatus', 'SUCCESS', 'he'))
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorSuccess');
    expect(calls[0].body).toMatchObject({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
    expect(screen.getByTestId('payments-export')).toBeVisible();
  });

  it('names the promo code and its discount under the amount of a payment that used one, and nowhere else', async () => {
    const withCode = [
      {
        ...rows[1],
        paymentId: 21,
        amount: 7.5,
        type: 'SUBSCRIPTION_PAYMENT',
        promoCode: { code: 'SPRING25', discount: 2.5 },
      },
      rows[1],
    ];
    mockFetch({
      'POST /api/payments/search': () =>
        json(200, { content: withCode, page: 0, size: 20, totalElements: 2, totalPages: 1 }),
    });
    renderInAdmin(<PaymentList />, { resource: 'payments', lang: 'en' });
    const found = await screen.findAllByTestId('payments-row');
    const line = within(found[0]).getByTestId('payment-promo-code');
    expect(line).toHaveTextContent('Code SPRING25, discount');
    expect(line.querySelector('bdi[data-amount="2.5"]')?.textContent).toBe(formatAmount(2.5, 'en'));
    expect(within(found[1]).queryByTestId('payment-promo-code')).toBeNull();
  });

  it('refuses a payment id that is not a whole number and searches by one that is', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': searchAnswer });
    const user = userEvent.setup();
    renderList();
    await screen.findAllByTestId('payments-row');
    const searchesBefore = calls.length;

    await user.type(screen.getByTestId('payments-id-filter'), '4.5');
    expect(await screen.findByText(formatErrorMessage('error.validation.integer', 'he'))).toBeVisible();
    // Well past the filter form's debounce, the refused value has not become a filter, so no new search was sent.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls).toHaveLength(searchesBefore);

    await user.clear(screen.getByTestId('payments-id-filter'));
    await user.type(screen.getByTestId('payments-id-filter'), '8');
    await waitFor(() => expect(calls.some((call) => (call.body as { id?: unknown }).id === 8)).toBe(true));
  });

  it('refuses a keyword of two letters, sends a longer one, and says the search looks at the latest payments', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': searchAnswer });
    const user = userEvent.setup();
    renderInAdmin(<PaymentList />, { resource: 'payments', lang: 'en' });
    await screen.findAllByTestId('payments-row');
    const searchesBefore = calls.length;
    const sentKeywords = () => calls.map((call) => (call.body as { keyWord?: string }).keyWord);

    await user.type(screen.getByTestId('payments-search'), 'wi');
    expect(await screen.findByText(formatErrorMessage('error.validation.min.length', 'en', { min: 3 }))).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(calls).toHaveLength(searchesBefore);
    expect(screen.queryByText(paymentKeywordBoundText('en'))).toBeNull();

    await user.type(screen.getByTestId('payments-search'), 're');
    await waitFor(() => expect(sentKeywords()).toContain('wire'));
    expect(await screen.findByText(paymentKeywordBoundText('en'))).toBeVisible();

    // Two digits are a payment number, found wherever it is: sent, and no bound to tell of.
    await user.clear(screen.getByTestId('payments-search'));
    await user.type(screen.getByTestId('payments-search'), '42');
    await waitFor(() => expect(sentKeywords()).toContain('42'));
    await waitFor(() => expect(screen.queryByText(paymentKeywordBoundText('en'))).toBeNull());
  });

  it('sorts by each column under a sort id the API accepts', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': searchAnswer });
    renderInAdmin(<PaymentList />, { resource: 'payments', lang: 'en' });
    await screen.findAllByTestId('payments-row');

    expect(await sortsSentByEachColumn(calls)).toEqual({
      'Payment ID': [{ id: 'paymentId', desc: false }],
      // The list starts newest first, so a click turns it around.
      Created: [{ id: 'createdAt', desc: false }],
      Client: [{ id: 'userEmail', desc: false }],
      Amount: [{ id: 'amount', desc: false }],
      Status: [{ id: 'status', desc: false }],
      Type: [{ id: 'type', desc: false }],
      Method: [{ id: 'method', desc: false }],
      Aggregator: [{ id: 'aggregator', desc: false }],
    });
    expect(API_SORT_IDS).toEqual(expect.arrayContaining(sentSortIds(calls)));
  });

  it('shows the same signs, colours and badges on a phone, one card per payment', async () => {
    onAPhone();
    mockFetch({ 'POST /api/payments/search': searchAnswer });
    renderList();

    const cards = await screen.findAllByTestId('payments-card');
    const pending = cards[0].querySelector('bdi[data-amount]');
    expect([pending?.textContent, pending?.getAttribute('data-state')]).toEqual([
      `+${formatAmount(1234.5, 'he')}`,
      'pending',
    ]);
    expect(
      within(cards[0])
        .getByText(enumLabel('paymentStatus', 'PENDING', 'he'))
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorWarning');
    const out = cards[1].querySelector('bdi[data-amount]');
    expect([out?.textContent, out?.getAttribute('data-intent')]).toEqual([formatAmount(-20, 'he'), 'error']);
  });

  it('shows under the amount what the provider reported for a payment held for review, on a phone as in the table', async () => {
    const heldAnswer = () => json(200, { content: heldRows, page: 0, size: 20, totalElements: 3, totalPages: 1 });
    mockFetch({ 'POST /api/payments/search': heldAnswer });
    const desktop = renderList();
    const inTable = (await screen.findAllByTestId('payment-reported')).map((element) => element.textContent);
    expect(inTable).toEqual(['25.00 EUR', '5000.00 USD']);
    desktop.unmount();

    onAPhone();
    mockFetch({ 'POST /api/payments/search': heldAnswer });
    renderList();
    const cards = await screen.findAllByTestId('payments-card');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]).getByTestId('payment-reported')).toHaveTextContent('25.00 EUR');
    expect(within(cards[1]).getByTestId('payment-reported')).toHaveTextContent('5000.00 USD');
    // The same words as the table's, and nothing under an ordinary payment's amount.
    expect(cards.slice(0, 2).map((card) => within(card).getByTestId('payment-reported').textContent)).toEqual(inTable);
    expect(within(cards[2]).queryByTestId('payment-reported')).toBeNull();
  });
});
