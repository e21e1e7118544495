import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ReceiptsTab } from './receipts-tab';

const RECEIPTS = [
  {
    number: 12,
    issuedAt: '2026-11-30T10:15:00.000Z',
    kind: 'RENEWAL',
    method: 'BALANCE',
    paymentId: 44,
    userUuid: 'u-1',
    clientName: 'Dana Cohen',
    clientEmail: 'dana@example.com',
    profileId: '12345678',
    currency: 'USD',
    amount: 9,
    amountAsked: null,
    listPrice: 10,
    discount: 1,
    discountKind: 'REFERRAL',
    discountPercent: 10,
    promoCode: null,
    planName: 'Gold',
    balanceAfter: 3,
  },
  {
    number: 5,
    issuedAt: '2026-11-01T08:00:00.000Z',
    kind: 'DEPOSIT',
    method: 'CRYPTO_USDT_TRC20',
    paymentId: 40,
    userUuid: 'u-1',
    clientName: 'Dana Cohen',
    clientEmail: 'dana@example.com',
    profileId: '12345678',
    currency: 'USD',
    amount: 12,
    amountAsked: 12,
    listPrice: null,
    discount: 0,
    discountKind: null,
    discountPercent: 0,
    promoCode: null,
    planName: null,
    balanceAfter: 12,
  },
];

function renderTab() {
  signInAs('MANAGER');
  return renderInAdmin(<ReceiptsTab />, {
    resource: 'clients',
    record: CLIENT,
    withAuth: true,
    path: '/admin/clients/u-1/show/receipts',
  });
}

describe("a client's receipts tab", () => {
  it('lists the receipts, newest first, with kind, package and amount, each with its PDF, for a manager', async () => {
    mockFetch({ 'GET /api/users/u-1/receipts': () => json(200, { items: RECEIPTS }) });
    renderTab();
    const rows = await screen.findAllByTestId('client-receipt');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('קבלה מס׳ 12');
    expect(rows[0]).toHaveTextContent('חידוש חבילה');
    expect(rows[0]).toHaveTextContent('Gold');
    expect(rows[0]).toHaveTextContent('9.00');
    expect(rows[1]).toHaveTextContent('הפקדה ליתרה');
    expect(screen.getAllByTestId('client-receipt-download')).toHaveLength(2);
  });

  it('says so when the client has none', async () => {
    mockFetch({ 'GET /api/users/u-1/receipts': () => json(200, { items: [] }) });
    renderTab();
    expect(await screen.findByTestId('client-receipts-empty')).toHaveTextContent('אין עדיין קבלות ללקוח הזה.');
  });
});
