import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { RefundToBalance } from './refund-to-balance';

const subscriptionPayment = {
  id: 77,
  paymentId: 77,
  userUuid: 'u-1',
  userEmail: 'dana@example.com',
  amount: 9.9,
  currency: 'USD',
  status: 'SUCCESS',
  method: 'BALANCE',
  type: 'SUBSCRIPTION_PAYMENT',
  aggregator: 'INTERNAL',
  comment: null,
};

const render = (record: typeof subscriptionPayment & { refundedByPaymentId?: number } = subscriptionPayment) =>
  renderInAdmin(<RefundToBalance />, { resource: 'payments', record });

beforeEach(() => signInAs('ADMIN'));

describe('refund to balance', () => {
  // Typing and dialogs are slow on a loaded machine; the budget is for that, not for waiting on the app.
  it(
    'asks for a reason, then confirms naming the amount, the client and the choice before sending',
    { timeout: 60_000 },
    async () => {
      const { calls } = mockFetch({
        'POST /api/payments/77/refund-to-balance': () => json(200, { refundPaymentId: 78 }),
      });
      const user = userEvent.setup();
      render();

      await user.click(screen.getByTestId('payment-refund-open'));
      expect(screen.queryByTestId('payment-refund-dialog')).toBeNull();
      expect(calls).toHaveLength(0);

      await user.click(screen.getByTestId('payment-refund-reason'));
      await user.paste('Outage in March');
      await user.click(screen.getByLabelText(/לסיים את המנוי עכשיו/));
      await user.click(screen.getByTestId('payment-refund-open'));

      const text = await screen.findByTestId('payment-refund-confirm-text');
      expect(text.textContent).toContain(formatAmount(9.9, 'he'));
      expect(text.textContent).toContain('dana@example.com');
      expect(text.textContent).toContain('המנוי יסתיים עכשיו');
      expect(calls).toHaveLength(0);

      await user.click(screen.getByTestId('payment-refund-confirm'));
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]).toMatchObject({
        method: 'POST',
        url: '/api/payments/77/refund-to-balance',
        body: { reason: 'Outage in March', subscriptionEnding: 'NOW' },
      });
    },
  );

  it('keeps the subscription to its end by default', { timeout: 60_000 }, async () => {
    const { calls } = mockFetch({
      'POST /api/payments/77/refund-to-balance': () => json(200, { refundPaymentId: 78 }),
    });
    const user = userEvent.setup();
    render();
    await user.click(screen.getByTestId('payment-refund-reason'));
    await user.paste('goodwill');
    await user.click(screen.getByTestId('payment-refund-open'));
    expect((await screen.findByTestId('payment-refund-confirm-text')).textContent).toContain('עד תאריך הסיום');
    await user.click(screen.getByTestId('payment-refund-confirm'));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ reason: 'goodwill', subscriptionEnding: 'AT_PERIOD_END' });
  });

  it('shows the REFUND of a refunded payment instead of the action, and nothing on other payments', () => {
    render({ ...subscriptionPayment, refundedByPaymentId: 78 });
    expect(screen.getByTestId('payment-refunded').textContent).toContain('#78');
    expect(screen.queryByTestId('payment-refund-open')).toBeNull();
  });

  it('offers nothing on a deposit', () => {
    render({ ...subscriptionPayment, type: 'DEPOSIT' });
    expect(screen.queryByTestId('payment-refund')).toBeNull();
    expect(screen.queryByTestId('payment-refunded')).toBeNull();
  });
});
