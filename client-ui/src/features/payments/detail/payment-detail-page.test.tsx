import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
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
  it('opens from the list and shows every field with both profile IDs of a transfer', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDetailApi();
    const user = userEvent.setup();
    const { history } = renderApp('/payments');
    await user.click(await screen.findByRole('link', { name: 'Open payment number 42' }));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/42'));

    const detail = await screen.findByTestId('payment-detail');
    expect(detail).toHaveAttribute('data-payment-id', '42');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment number 42');
    expect(screen.getByTestId('payment-detail-type')).toHaveTextContent('Transfer out');
    expect(screen.getByTestId('payment-detail-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('payment-detail-amount')).toHaveTextContent(formatSignedDollars(-12.5, 'en'));
    expect(screen.getByTestId('payment-detail-currency')).toHaveTextContent('USD · US dollar');
    expect(screen.getByTestId('payment-detail-method')).toHaveTextContent('Balance');
    expect(screen.getByTestId('payment-detail-aggregator')).toHaveTextContent('Internal');
    expect(screen.getByTestId('payment-detail-sender')).toHaveTextContent('12345678');
    expect(screen.getByTestId('payment-detail-recipient')).toHaveTextContent('87654321');
    expect(screen.getByTestId('payment-detail-created-by')).toHaveTextContent('dana@example.com');
    expect(screen.queryByTestId('payment-detail-comment')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/payments/42' && call.method === 'GET')).toBe(true);
  });

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
