import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Receipt } from '@kupa/proto';
import { useLangStore } from '../../lib/stores/lang-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

const PURCHASE: Receipt = {
  number: 7,
  issuedAt: '2026-11-30T10:15:00.000Z',
  kind: 'PURCHASE',
  method: 'BALANCE',
  paymentId: 42,
  userUuid: '3f1c2b7e-7d55-4a38-9a7c-2f4b8a1e6c10',
  clientName: 'Dana Cohen',
  clientEmail: 'dana@example.com',
  profileId: '12345678',
  currency: 'USD',
  amount: 8,
  amountAsked: null,
  listPrice: 10,
  discount: 2,
  discountKind: 'PROMO_CODE',
  discountPercent: 0,
  promoCode: 'SAVE20',
  planName: 'Premium HD',
  balanceAfter: 17,
};

function mockReceiptsApi() {
  return mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === '/api/receipts') return jsonResponse(200, { items: [PURCHASE] });
    if (url === '/api/receipts/7') return jsonResponse(200, PURCHASE);
    return errorResponse(404, 'error.receipt.not.found', 'Receipt not found');
  });
}

describe('receipts', () => {
  it('lists the receipts and opens one with every line of the PDF, in English', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockReceiptsApi();
    const user = userEvent.setup();
    const { history } = renderApp('/receipts');
    const link = await screen.findByRole('link', { name: 'Receipt No. 7' }, { timeout: 15_000 });
    expect(screen.getByTestId('receipt-item')).toHaveTextContent('Package purchase');
    await user.click(link);
    await waitFor(() => expect(history.location.pathname).toBe('/receipts/7'));

    const receipt = await screen.findByTestId('receipt');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Receipt No. 7');
    expect(receipt).toHaveTextContent('Dana Cohen \u2066<dana@example.com>\u2069');
    expect(receipt).toHaveTextContent('promo code SAVE20');
    expect(receipt).toHaveTextContent('Amount paid$8.00');
    expect(receipt).toHaveTextContent('Balance after$17.00');
    expect(receipt).toHaveTextContent('It is not a tax invoice.');
    expect(screen.getByTestId('receipt-download')).toBeEnabled();
  });

  it('says so in Hebrew, and answers a number that is not the client’s as not found', async () => {
    useLangStore.getState().setLang('he');
    signInAs();
    mockReceiptsApi();
    renderApp('/receipts/7');
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 })).toHaveTextContent('קבלה מס׳ 7');
    expect(await screen.findByTestId('receipt')).toHaveTextContent('סכום ששולם');

    renderApp('/receipts/8');
    expect(await screen.findByText('הקבלה לא נמצאה')).toBeInTheDocument();
  });
});
