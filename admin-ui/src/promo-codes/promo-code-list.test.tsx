import { type PromoCodeView, type UserRole } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { onAPhone } from '../test/phone';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PromoCodeList } from './promo-code-list';

const SPRING: PromoCodeView = {
  code: 'SPRING20',
  discountKind: 'PERCENT',
  percent: 20,
  amount: null,
  appliesTo: ['PURCHASE'],
  planIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: 100,
  maxUsesPerClient: 1,
  newClientsOnly: false,
  status: 'ACTIVE',
  uses: 12,
  revenue: 96,
  discountGiven: 24,
  createdAt: '2026-11-01T10:00:00.000Z',
  disabledAt: null,
};

function renderAs(role: UserRole) {
  signInAs(role);
  return renderInAdmin(<PromoCodeList />, { resource: 'promo-codes', withAuth: true, lang: 'en', notifications: true });
}

describe('promo codes (ADR 0088)', () => {
  it('lists each code with its uses against its limit and its revenue; an admin disables one', async () => {
    let codes = [SPRING];
    const { calls } = mockFetch({
      'GET /api/promo-codes': () => json(200, codes),
      'POST /api/promo-codes/SPRING20/disable': () => {
        codes = [{ ...SPRING, status: 'DISABLED', disabledAt: '2026-11-29T10:00:00.000Z' }];
        return json(200, codes[0]);
      },
    });
    renderAs('ADMIN');
    const [row] = await screen.findAllByTestId('promo-code-row');
    expect(within(row).getByTestId('promo-code-uses')).toHaveTextContent('12 / 100');
    expect(within(row).getByTestId('promo-code-revenue')).toHaveTextContent(formatAmount(96, 'en'));
    await userEvent.setup().click(within(row).getByTestId('promo-code-disable'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/promo-codes/SPRING20/disable')).toBe(true));
    await waitFor(() => expect(within(screen.getByTestId('promo-code-row')).getByText('Disabled')).toBeVisible());
    expect(screen.queryByTestId('promo-code-disable')).toBeNull();
  });

  it("lists a code's live holds with client, payment, price and until when, and links to its payments", async () => {
    const { calls } = mockFetch({
      'GET /api/promo-codes': () => json(200, [SPRING]),
      'GET /api/promo-codes/SPRING20/holds': () =>
        json(200, [
          {
            code: 'SPRING20',
            userUuid: '11111111-1111-4111-8111-111111111111',
            userEmail: 'dana@example.com',
            depositPaymentId: 42,
            subscriptionId: '22222222-2222-4222-8222-222222222222',
            price: 8,
            discount: 2,
            heldSince: '2026-11-29T10:00:00.000Z',
            expiresAt: '2026-11-29T11:00:00.000Z',
          },
        ]),
    });
    renderAs('MANAGER');
    const [row] = await screen.findAllByTestId('promo-code-row');
    await userEvent.setup().click(within(row).getByTestId('promo-code-holds'));
    const dialog = await screen.findByTestId('promo-code-holds-dialog');
    const hold = await within(dialog).findByTestId('promo-code-hold-row');
    expect(hold).toHaveTextContent('dana@example.com');
    expect(hold).toHaveTextContent('#42');
    expect(hold).toHaveTextContent(formatAmount(8, 'en'));
    expect(calls.some((call) => call.url === '/api/promo-codes/SPRING20/holds')).toBe(true);
    expect(within(dialog).getByTestId('promo-code-payments')).toHaveAttribute(
      'href',
      expect.stringContaining(encodeURIComponent('{"promoCode":"SPRING20"}')),
    );
  });

  it('shows one card per code on a phone, with its uses and revenue, rather than a table scrolling sideways', async () => {
    onAPhone();
    mockFetch({ 'GET /api/promo-codes': () => json(200, [SPRING]) });
    renderAs('ADMIN');
    const card = await screen.findByTestId('promo-code-card');
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(card).getByTestId('promo-code-uses')).toHaveTextContent('12 / 100');
    expect(within(card).getByTestId('promo-code-revenue')).toHaveTextContent(formatAmount(96, 'en'));
    expect(card).toHaveTextContent('Discount given');
    expect(within(card).getByTestId('promo-code-disable')).toBeVisible();
  });

  it('creates a code from the dialog, sending the terms the admin chose', async () => {
    const { calls } = mockFetch({
      'GET /api/promo-codes': () => json(200, []),
      'POST /api/promo-codes': () => json(201, SPRING),
    });
    renderAs('ADMIN');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('promo-codes-create'));
    await user.type(screen.getByTestId('promo-code-code'), 'spring20');
    await user.type(screen.getByTestId('promo-code-value'), '20');
    await user.click(screen.getByTestId('promo-code-save'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST' && call.url === '/api/promo-codes')?.body).toEqual({
        code: 'SPRING20',
        discountKind: 'PERCENT',
        percent: 20,
        appliesTo: ['PURCHASE'],
        newClientsOnly: false,
      }),
    );
  });

  it('shows a manager the list without create or disable', async () => {
    mockFetch({ 'GET /api/promo-codes': () => json(200, [SPRING]) });
    renderAs('MANAGER');
    await screen.findAllByTestId('promo-code-row');
    expect(screen.queryByTestId('promo-codes-create')).toBeNull();
    expect(screen.queryByTestId('promo-code-disable')).toBeNull();
  });
});
