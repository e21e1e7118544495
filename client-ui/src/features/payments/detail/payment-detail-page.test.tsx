import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clientEnumLabel, formatErrorMessage, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import { formatSignedDollars } from '../../../lib/format';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  isDepositWatch,
  renderApp,
  signInAs,
} from '../../../test/render-app';

const TRANSFER_OUT = makePayment({
  paymentId: 42,
  type: 'TRANSFER_OUT',
  method: 'BALANCE',
  aggregator: 'INTERNAL',
  amount: 12.5,
  senderProfileId: '12345678',
  recipientProfileId: '87654321',
  transferId: 'TRF-1',
  createdBy: 'dana@example.com',
  updatedBy: 'dana@example.com',
  counterpartyName: 'Omer Levi',
});

function mockDetailApi() {
  return mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === '/api/payments/42') return jsonResponse(200, TRANSFER_OUT);
    if (url === '/api/payments/search') return jsonResponse(200, pageOf([TRANSFER_OUT]));
    return errorResponse(404, 'error.payment.not.found', 'Payment not found');
  });
}

describe('payment detail', () => {
  it('opens from the list and names the other side of a transfer, without ids, providers or authors about the client', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDetailApi();
    const user = userEvent.setup();
    const { history } = renderApp('/payments');
    // The first test of the file waits for the payments route's lazy chunk, compiled on first use by the test run.
    await user.click(await screen.findByRole('link', { name: 'Open payment number 42' }, { timeout: 15_000 }));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/42'));

    const detail = await screen.findByTestId('payment-detail');
    expect(detail).toHaveAttribute('data-payment-id', '42');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment number 42');
    expect(screen.getByTestId('payment-detail-type')).toHaveTextContent('Transfer out');
    expect(screen.getByTestId('payment-detail-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('payment-detail-amount')).toHaveTextContent(formatSignedDollars(-12.5, 'en'));
    expect(screen.getByTestId('payment-detail-currency')).toHaveTextContent('USD · US dollar');
    expect(screen.getByTestId('payment-detail-method')).toHaveTextContent('Balance');
    const counterparty = screen.getByTestId('payment-detail-counterparty');
    expect(detail).toHaveTextContent('Sent to');
    expect(counterparty).toHaveTextContent('Omer Levi · 87654321');
    // The client's own profile ID, Kupa's transfer id, an "Internal" provider and rows saying the client did it
    // themselves tell them nothing.
    expect(detail).not.toHaveTextContent('12345678');
    expect(detail).not.toHaveTextContent('TRF-1');
    expect(detail).not.toHaveTextContent('dana@example.com');
    expect(detail).not.toHaveTextContent('Internal');
    for (const row of ['aggregator', 'transfer-id', 'created-by', 'updated-by', 'comment']) {
      expect(screen.queryByTestId(`payment-detail-${row}`)).not.toBeInTheDocument();
    }
    expect(calls.some((call) => call.url === '/api/payments/42' && call.method === 'GET')).toBe(true);
  });

  it('names the package a balance payment bought, and the sender of a transfer in, in Hebrew', async () => {
    signInAs();
    const charge = makePayment({
      paymentId: 42,
      type: 'SUBSCRIPTION_PAYMENT',
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      amount: 10,
      paidFor: { subscriptionId: '5b1c2d3e-0000-4000-8000-000000000009', planName: 'נטפליקס פרימיום' },
      promoCode: { code: 'SPRING25', discount: 2.5 },
    });
    const incoming = makePayment({
      paymentId: 43,
      type: 'TRANSFER_IN',
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      amount: 5,
      senderProfileId: '12345678',
      recipientProfileId: '87654321',
      createdBy: '12345678',
      counterpartyName: 'דנה כהן',
    });
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      if (url === '/api/payments/42') return jsonResponse(200, charge);
      if (url === '/api/payments/43') return jsonResponse(200, incoming);
      return errorResponse(404, 'error.payment.not.found', 'Payment not found');
    });
    const first = renderApp('/payments/42');
    expect(await screen.findByTestId('payment-detail-package')).toHaveTextContent('נטפליקס פרימיום');
    expect(screen.getByTestId('payment-detail')).toHaveTextContent(translate('he', 'payment.field.package'));
    expect(screen.queryByTestId('payment-detail-aggregator')).not.toBeInTheDocument();
    expect(screen.getByTestId('payment-detail')).not.toHaveTextContent('5b1c2d3e');
    expect(screen.getByTestId('payment-detail-promo-code')).toHaveTextContent('קוד SPRING25: הנחה של');
    first.unmount();

    renderApp('/payments/43');
    const from = await screen.findByTestId('payment-detail-counterparty');
    expect(screen.getByTestId('payment-detail')).toHaveTextContent(translate('he', 'payment.field.transferFrom'));
    expect(from).toHaveTextContent('דנה כהן · 12345678');
    expect(screen.queryByTestId('payment-detail-created-by')).not.toBeInTheDocument();
  });

  it('links a subscription payment Kupa refunded to the balance to its refund, in both languages', async () => {
    signInAs();
    const refunded = makePayment({
      paymentId: 42,
      type: 'SUBSCRIPTION_PAYMENT',
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      amount: 10,
      refundedByPaymentId: 51,
    });
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      if (url === '/api/payments/42') return jsonResponse(200, refunded);
      return errorResponse(404, 'error.payment.not.found', 'Payment not found');
    });
    const hebrew = renderApp('/payments/42');
    // A loaded machine renders the page slower than the default second.
    const row = await screen.findByTestId('payment-detail-refunded-by', {}, { timeout: 15_000 });
    expect(row).toHaveTextContent('#51');
    expect(screen.getByTestId('payment-detail')).toHaveTextContent(translate('he', 'payment.field.refundedBy'));
    expect(screen.getByTestId('payment-detail-refunded-link')).toHaveAttribute('href', '/payments/51');
    hebrew.unmount();

    useLangStore.getState().setLang('en');
    renderApp('/payments/42');
    await screen.findByTestId('payment-detail-refunded-by', {}, { timeout: 15_000 });
    expect(screen.getByTestId('payment-detail')).toHaveTextContent('Refunded to your balance as payment');
  }, 60_000);

  it('names staff work as Kupa, shows the note staff wrote for the client, and wraps long unbroken text', async () => {
    signInAs();
    const longWord = 'x'.repeat(300);
    const rejected = makePayment({
      paymentId: 42,
      type: 'DEPOSIT',
      status: 'REJECTED',
      amount: 30,
      publicNote: `ההעברה הגיעה מחשבון שאינו על שמכם ${longWord}`,
      createdBy: PUBLIC_STAFF_ACTOR_NAME,
      updatedBy: PUBLIC_STAFF_ACTOR_NAME,
      updatedAt: '2026-02-02T10:00:00.000Z',
    });
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      if (url === '/api/payments/42') return jsonResponse(200, rejected);
      return errorResponse(404, 'error.payment.not.found', 'Payment not found');
    });
    renderApp('/payments/42');

    await screen.findByTestId('payment-detail');
    expect(screen.getByTestId('payment-detail-created-by')).toHaveTextContent(translate('he', 'app.name'));
    expect(screen.getByTestId('payment-detail-updated-by')).toHaveTextContent(translate('he', 'app.name'));
    const note = screen.getByTestId('payment-detail-public-note');
    expect(note).toHaveTextContent('ההעברה הגיעה מחשבון שאינו על שמכם');
    expect(getComputedStyle(note).overflowWrap).toBe('anywhere');
    // A rejected deposit is struck through and muted, never a green plus.
    const amount = screen.getByTestId('payment-detail-amount').querySelector('bdi') as HTMLElement;
    expect([amount.getAttribute('data-state'), amount.getAttribute('data-intent')]).toEqual(['void', 'neutral']);
    expect(getComputedStyle(amount).textDecoration).toContain('line-through');
    expect(screen.getByTestId('payment-detail-status').querySelector('.MuiChip-root')).toHaveClass(
      'MuiChip-colorError',
    );
  });

  it('shows a card top-up as a card deposit naming its card provider, the sandbox card marked as not real money', async () => {
    signInAs();
    const card = {
      provider: 'SANDBOX' as const,
      checkoutSessionId: 'cs_test_sandbox_1',
      providerPaymentId: 'pi_test_sandbox_1',
      providerStatus: 'paid' as const,
      amountAsked: 40,
      amountReceived: 40,
      reported: null,
    };
    const topUp = makePayment({
      paymentId: 51,
      type: 'DEPOSIT',
      aggregator: 'STRIPE',
      method: 'CARD',
      amount: 40,
      card,
    });
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      if (url === '/api/payments/51') return jsonResponse(200, topUp);
      if (url === '/api/payments/search') return jsonResponse(200, pageOf([topUp]));
      return errorResponse(404, 'error.payment.not.found', 'Payment not found');
    });
    renderApp('/payments/51');
    expect(await screen.findByTestId('payment-detail-card-provider')).toHaveTextContent('כרטיס הניסוי (לא כסף אמיתי)');
    expect(screen.getByText(translate('he', 'payment.field.cardProvider'))).toBeInTheDocument();
    expect(screen.getByTestId('payment-detail-method')).toHaveTextContent(
      clientEnumLabel('paymentMethod', 'CARD', 'he'),
    );
    useLangStore.getState().setLang('en');
    expect(await screen.findByText('Sandbox card (not real money)')).toBeInTheDocument();
  });

  it('shows the not-found screen, with no error toast, when the server answers 404', async () => {
    signInAs();
    mockDetailApi();
    renderApp('/payments/77');
    const notFound = await screen.findByTestId('not-found');
    expect(notFound).toHaveTextContent(translate('he', 'notFound.title'));
    expect(notFound).toHaveTextContent(formatErrorMessage('error.payment.not.found', 'he'));
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('treats an id that is not a positive whole number as not found without asking the server', async () => {
    signInAs();
    const { calls } = mockDetailApi();
    renderApp('/payments/abc');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith('/api/payments') && !isDepositWatch(call))).toBe(false);
  });
});
