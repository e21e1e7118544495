import { screen, waitFor, within } from '@testing-library/react';
import type { Payment } from '@kupa/proto';
import { formatDollars } from '../../lib/format';
import { translate } from '../../lib/i18n/i18n';
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
} from '../../test/render-app';

const PLAN_ID = '7b0c3a52-0000-4000-8000-00000000aa01';
const SUBSCRIPTION_ID = '5d2e8f10-0000-4000-8000-0000000000b1';

/** A card payment for a package: `reads` answers the payment's reads in turn, the last one from then on. */
function mockPayment(paymentId: number, reads: Payment[]) {
  return mockFetch(({ url }) => {
    if (url === `/api/payments/${paymentId}`) return jsonResponse(200, reads.length > 1 ? reads.shift() : reads[0]);
    if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true }));
    return errorResponse(404, 'error.entity.not.found');
  });
}

const cardPayment = (overrides: Partial<Payment>) =>
  makePayment({
    paymentId: 91,
    type: 'DEPOSIT',
    aggregator: 'STRIPE',
    method: 'CARD',
    amount: 18,
    purchase: {
      kind: 'BUY',
      paymentPlanId: PLAN_ID,
      planName: 'Monthly HD',
      subscriptionId: null,
      status: 'WAITING',
      errorCode: null,
    },
    ...overrides,
  });

describe('payment result screens', () => {
  it('follow a payment that is still pending until it settles and says what it bought', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockPayment(91, [
      cardPayment({ status: 'PENDING' }),
      cardPayment({
        status: 'SUCCESS',
        purchase: {
          kind: 'BUY',
          paymentPlanId: PLAN_ID,
          planName: 'Monthly HD',
          subscriptionId: SUBSCRIPTION_ID,
          status: 'DONE',
          errorCode: null,
        },
      }),
    ]);
    renderApp('/paymentSuccess?paymentId=91');

    const pending = await screen.findByTestId('payment-result');
    expect(pending).toHaveAttribute('data-outcome', 'pending');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment in progress');
    expect(screen.getByTestId('payment-result-amount')).toHaveTextContent(formatDollars(18, 'en'));
    expect(screen.getByTestId('payment-result-purchase')).toHaveTextContent('Package purchase · Monthly HD');

    await waitFor(() => expect(screen.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'success'), {
      timeout: 12_000,
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('en', 'paymentSuccess.title'));
    expect(screen.getByTestId('payment-result-purchase-text')).toHaveTextContent(
      'The package \u2068Monthly HD\u2069 was bought.',
    );
    expect(screen.getByTestId('payment-result-status')).toHaveTextContent('Success');
    expect(screen.getByTestId('payment-result-subscription')).toHaveAttribute(
      'href',
      `/subscriptions/${SUBSCRIPTION_ID}`,
    );
    expect(calls.filter((call) => call.url === '/api/payments/91').length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('show the real outcome whichever way the provider sent the client back', async () => {
    signInAs();
    mockPayment(92, [
      cardPayment({
        paymentId: 92,
        status: 'SUCCESS',
        purchase: {
          kind: 'BUY',
          paymentPlanId: PLAN_ID,
          planName: 'Monthly HD',
          subscriptionId: null,
          status: 'FAILED',
          errorCode: 'error.plan.no.longer.available',
        },
      }),
    ]);
    renderApp('/paymentFailed?paymentId=92');

    // Landed on the failure address, but the money arrived: it is credited, and the package could not follow.
    const result = await screen.findByTestId('payment-result');
    expect(result).toHaveAttribute('data-outcome', 'success');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'paymentSuccess.title'));
    expect(within(result).getByTestId('payment-result-purchase-text')).toHaveTextContent(
      translate('he', 'deposit.purchase.failedBuy', { plan: '\u2068Monthly HD\u2069', reason: '' }).split(':')[0],
    );
    expect(screen.queryByTestId('payment-result-subscription')).toBeNull();
  });

  it('say a payment that closed without money failed, and fall back to the landing without a payment id', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockPayment(93, [cardPayment({ paymentId: 93, status: 'FAILED' })]);
    const { unmount } = renderApp('/paymentSuccess?paymentId=93');
    const result = await screen.findByTestId('payment-result');
    expect(result).toHaveAttribute('data-outcome', 'failed');
    expect(result).toHaveTextContent('The payment did not go through (Failed).');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment failed');
    unmount();

    renderApp('/paymentFailed');
    expect(await screen.findByTestId('payment-failed')).toBeInTheDocument();
  });

  it("tell a card top-up's outcome: the amount credited and an ambassador's bonus with it", async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const topUp = cardPayment({ paymentId: 94, amount: 200, status: 'SUCCESS', purchase: null, bonusPaymentId: 95 });
    const bonus = makePayment({ paymentId: 95, type: 'AMBASSADOR_BONUS', amount: 20, bonusForPaymentId: 94 });
    mockFetch(({ url }) => {
      if (url === '/api/payments/94') return jsonResponse(200, topUp);
      if (url === '/api/payments/95') return jsonResponse(200, bonus);
      if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true }));
      return errorResponse(404, 'error.entity.not.found');
    });
    renderApp('/paymentSuccess?paymentId=94');
    const result = await screen.findByTestId('payment-result');
    expect(result).toHaveAttribute('data-outcome', 'success');
    expect(result).toHaveTextContent(translate('en', 'deposit.crypto.settled', { amount: formatDollars(200, 'en') }));
    expect(await screen.findByTestId('payment-result-bonus-text')).toHaveTextContent(
      translate('en', 'paymentResult.bonusCredited', { amount: formatDollars(20, 'en') }),
    );
    expect(screen.getByTestId('payment-result-bonus')).toHaveTextContent(formatDollars(20, 'en'));
    expect(screen.queryByTestId('payment-result-purchase')).toBeNull();
  });
});
