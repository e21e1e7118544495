import { screen, waitFor } from '@testing-library/react';
import type { Payment } from '@kupa/proto';
import { formatDollars } from '../../lib/format';
import { useLangStore } from '../../lib/stores/lang-store';
import {
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../test/render-app';

const cashier = {
  provider: 'SANDBOX' as const,
  invoiceId: '4522625843',
  invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/4522625843',
  providerPaymentId: '5077125051',
  providerStatus: 'finished' as const,
  payCurrency: 'usdttrc20',
  amountAsked: 50,
  amountReceived: 50,
  amountHeld: null,
};

const deposit = (overrides: Partial<Payment>) =>
  makePayment({ paymentId: 77, type: 'DEPOSIT', aggregator: 'CASHIER', method: 'CRYPTO_USDT_TRC20', ...overrides });

/** The client's pending deposits as `pending()` says, the deposit as `settled()` says, the balance as `balance()`. */
function mockWatchApi(options: { pending: () => Payment[]; settled: () => Payment; balance: () => number }) {
  return mockFetch(({ url, body }: RecordedCall) => {
    if (url === '/api/payments/search') {
      const request = body as { statuses?: string[] };
      return jsonResponse(200, pageOf(request.statuses?.includes('PENDING') ? options.pending() : []));
    }
    if (url === '/api/payments/77') return jsonResponse(200, options.settled());
    if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true, balance: options.balance() }));
    return errorResponse(404, 'error.entity.not.found');
  });
}

const isolatedTexts = (element: HTMLElement) => [...element.querySelectorAll('bdi')].map((node) => node.textContent);

describe('deposit watcher', () => {
  it('announces a deposit that settles while the app is open, with the amount, and reads the balance again', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    let settled = false;
    mockWatchApi({
      pending: () => (settled ? [] : [deposit({ status: 'PENDING', cashier: { ...cashier, amountReceived: 0 } })]),
      settled: () => deposit({ status: 'SUCCESS', amount: 50, cashier }),
      balance: () => (settled ? 50 : 0),
    });
    renderApp('/help');
    await waitFor(() => expect(isolatedTexts(screen.getByTestId('balance'))).toEqual([formatDollars(0, 'en')]));
    // Seen pending; nothing to say yet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByTestId('toast')).toBeNull();

    settled = true;
    const toast = await screen.findByTestId('toast', {}, { timeout: 15_000 });
    expect(toast).toHaveTextContent('Deposit settled');
    expect(toast).toHaveTextContent(`Deposit settled: ${formatDollars(50, 'en')} was added to your balance.`);
    await waitFor(() => expect(isolatedTexts(screen.getByTestId('balance'))).toEqual([formatDollars(50, 'en')]));
  }, 30_000);

  it('tells a client sent back from the cashier what their deposit-and-buy did, once', async () => {
    signInAs();
    // This tab saw the deposit waiting before the client left for the invoice page.
    sessionStorage.setItem('kupa.watchedDeposits', '[77]');
    const { calls } = mockWatchApi({
      pending: () => [],
      settled: () =>
        deposit({
          status: 'SUCCESS',
          amount: 50,
          cashier,
          purchase: {
            kind: 'BUY',
            paymentPlanId: '7b0c3a52-0000-4000-8000-00000000aa01',
            planName: 'Monthly HD',
            subscriptionId: null,
            status: 'FAILED',
            errorCode: 'error.plan.no.longer.available',
          },
        }),
      balance: () => 50,
    });
    renderApp('/help');

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('ההפקדה התקבלה');
    expect(toast).toHaveTextContent('החבילה \u2068Monthly HD\u2069 לא נקנתה');
    expect(toast).toHaveTextContent('החבילה הזו כבר אינה זמינה. הכסף נשאר ביתרה שלכם.');
    await waitFor(() => expect(sessionStorage.getItem('kupa.watchedDeposits')).toBeNull());
    const reads = calls.filter((call) => call.url === '/api/payments/77').length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls.filter((call) => call.url === '/api/payments/77')).toHaveLength(reads);
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
  });
});
