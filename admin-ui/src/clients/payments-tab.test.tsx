import { type UserRole } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PaymentsTab } from './payments-tab';
import { ProfileTab } from './profile-tab';

const client = { ...CLIENT, balance: 1250.75 };

const payments = [
  {
    paymentId: 42,
    userUuid: 'u-1',
    amount: 20,
    status: 'SUCCESS',
    type: 'DEPOSIT',
    method: 'MANUAL_TRANSFER',
    aggregator: 'MANUAL',
  },
  {
    paymentId: 43,
    userUuid: 'u-1',
    amount: 5,
    status: 'PENDING',
    type: 'WITHDRAW',
    method: 'MANUAL_TRANSFER',
    aggregator: 'MANUAL',
  },
];

function renderAs(
  role: UserRole,
  content: 'payments' | 'profile',
  onLocation: (path: string) => void = () => undefined,
) {
  signInAs(role);
  return renderInAdmin(content === 'payments' ? <PaymentsTab /> : <ProfileTab />, {
    resource: 'clients',
    record: client,
    withAuth: true,
    path: '/admin/clients/u-1/show/payments',
    onLocation,
  });
}

describe("a client's payments tab", () => {
  it("lists the client's payments from the per-user search, and an admin's row opens the payment", async () => {
    const { calls } = mockFetch({
      'POST /api/payments/search/u-1': () =>
        json(200, { content: payments, page: 0, size: 20, totalElements: 2, totalPages: 1 }),
    });
    const locations: string[] = [];
    const user = userEvent.setup();
    renderAs('ADMIN', 'payments', (path) => locations.push(path));

    const rows = await screen.findAllByTestId('client-payments-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['42', '43']);
    // Signed by direction: the deposit in green, the pending withdrawal minus and muted.
    const deposit = rows[0].querySelector('bdi[data-amount]');
    expect([deposit?.textContent, deposit?.getAttribute('data-intent')]).toEqual([
      `+${formatAmount(20, 'he')}`,
      'success',
    ]);
    const withdrawal = rows[1].querySelector('bdi[data-amount]');
    expect([withdrawal?.textContent, withdrawal?.getAttribute('data-state')]).toEqual([
      formatAmount(-5, 'he'),
      'pending',
    ]);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      page: 0,
      size: 20,
      sorts: [{ id: 'createdAt', desc: true }],
    });
    expect(screen.getByTestId('client-account-history')).toHaveAttribute(
      'href',
      '/admin/ledger/history?account=user%3Au-1',
    );

    await user.click(rows[0]);
    await waitFor(() => expect(locations.at(-1)).toBe('/admin/payments/42/show'));
  });

  it("keeps a manager's rows on the page, since managers may not open payment details", async () => {
    mockFetch({
      'POST /api/payments/search/u-1': () =>
        json(200, { content: payments, page: 0, size: 20, totalElements: 2, totalPages: 1 }),
    });
    const locations: string[] = [];
    const user = userEvent.setup();
    renderAs('MANAGER', 'payments', (path) => locations.push(path));

    const rows = await screen.findAllByTestId('client-payments-row');
    await user.click(rows[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(locations.every((path) => path === '/admin/clients/u-1/show/payments')).toBe(true);
  });
});

describe("a client's balance", () => {
  it('shows the balance in bdi and offers admins the balance fix', async () => {
    mockFetch({});
    renderAs('ADMIN', 'profile');
    const balance = screen.getByTestId('client-balance');
    expect(balance.tagName).toBe('BDI');
    expect(balance.textContent).toBe(formatAmount(1250.75, 'he'));
    expect(await screen.findByTestId('fix-balance-open')).toBeVisible();
  });

  it('offers managers the history but not the balance fix', async () => {
    mockFetch({});
    renderAs('MANAGER', 'profile');
    expect(await screen.findByTestId('client-account-history')).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('fix-balance-open')).toBeNull();
  });

  it('shows the card the client saved for renewals: brand and last four left to right, expiry', async () => {
    mockFetch({
      'POST /api/payments/search/u-1': () => json(200, { content: [], totalElements: 0 }),
      'GET /api/users/u-1/saved-card': () =>
        json(200, {
          available: true,
          provider: 'STRIPE',
          card: { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031, savedAt: '2026-11-29T10:00:00.000Z' },
        }),
    });
    renderAs('MANAGER', 'payments');
    const number = await screen.findByTestId('client-saved-card-number');
    expect([number.tagName, number.getAttribute('dir'), number.textContent]).toEqual(['BDI', 'ltr', 'VISA •••• 4242']);
    expect(screen.getByTestId('client-saved-card-expiry')).toHaveTextContent('בתוקף עד 03/2031');
    expect(screen.getByTestId('client-saved-card')).toHaveTextContent('כרטיס שמור');
  });

  it('says when the client has no saved card, and when it could not be read', async () => {
    mockFetch({
      'POST /api/payments/search/u-1': () => json(200, { content: [], totalElements: 0 }),
      'GET /api/users/u-1/saved-card': () => json(200, { available: false, provider: 'STRIPE', card: null }),
    });
    const { unmount } = renderAs('ADMIN', 'payments');
    expect(await screen.findByTestId('client-saved-card-none')).toHaveTextContent('אין כרטיס שמור');
    unmount();
    mockFetch({ 'POST /api/payments/search/u-1': () => json(200, { content: [], totalElements: 0 }) });
    renderAs('ADMIN', 'payments');
    expect(await screen.findByTestId('client-saved-card-failed')).toBeInTheDocument();
  });
});
