import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SavedCardView, Subscription } from '@kupa/proto';
import {
  errorResponse,
  jsonResponse,
  makeSubscription,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
} from '../../../test/render-app';

const CARD: SavedCardView = {
  available: true,
  provider: 'STRIPE',
  card: { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031, savedAt: '2026-11-29T10:00:00.000Z' },
};

function mockApi(savedCard: SavedCardView, start: Partial<Subscription> = {}) {
  let subscription = makeSubscription({ isRecurrent: true, ...start });
  return mockFetch(({ url, method, body }) => {
    if (url === '/api/users/me/saved-card') return jsonResponse(200, savedCard);
    if (url === `/api/subscriptions/${subscription.id}/renewal-funding` && method === 'PUT') {
      subscription = { ...subscription, renewalFunding: (body as { funding: Subscription['renewalFunding'] }).funding };
      return jsonResponse(200, subscription);
    }
    if (url === `/api/subscriptions/${subscription.id}`) return jsonResponse(200, subscription);
    if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true }));
    if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    return errorResponse(404, 'error.entity.not.found');
  });
}

describe('subscription page: how the renewal is paid', () => {
  it('chooses the card for what the balance lacks', async () => {
    signInAs();
    const { calls } = mockApi(CARD);
    const user = userEvent.setup();
    renderApp(`/subscriptions/${makeSubscription().id}`);
    const balance = await screen.findByTestId('renewal-funding-BALANCE');
    expect(balance).toBeChecked();
    await user.click(screen.getByTestId('renewal-funding-BALANCE_THEN_CARD'));
    await waitFor(() => expect(screen.getByTestId('renewal-funding-BALANCE_THEN_CARD')).toBeChecked());
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      url: `/api/subscriptions/${makeSubscription().id}/renewal-funding`,
      body: { funding: 'BALANCE_THEN_CARD' },
    });
    // The details above say the same as the choice.
    await waitFor(() =>
      expect(screen.getByTestId('subscription-detail-recurrent')).toHaveTextContent('כן, מהיתרה והחסר מהכרטיס'),
    );
  });

  it('offers the card choices only with a saved card', async () => {
    signInAs();
    mockApi({ available: true, provider: 'STRIPE', card: null });
    renderApp(`/subscriptions/${makeSubscription().id}`);
    expect(await screen.findByTestId('renewal-funding-CARD')).toBeDisabled();
    expect(screen.getByTestId('renewal-funding-BALANCE_THEN_CARD')).toBeDisabled();
    expect(screen.getByTestId('renewal-funding-needs-card')).toHaveTextContent('יש לשמור כרטיס');
  });

  it('with card payments switched off, lets a subscription still on the card go back to the balance', async () => {
    signInAs();
    const { calls } = mockApi({ ...CARD, available: false }, { renewalFunding: 'CARD' });
    const user = userEvent.setup();
    renderApp(`/subscriptions/${makeSubscription().id}`);
    expect(await screen.findByTestId('renewal-funding-CARD')).toBeDisabled();
    expect(screen.getByTestId('renewal-funding-BALANCE_THEN_CARD')).toBeDisabled();
    expect(screen.getByTestId('renewal-funding-card-off')).toHaveTextContent('מהיתרה');
    await user.click(screen.getByTestId('renewal-funding-BALANCE'));
    // Back on the balance there is nothing left to choose while the switch is off: the section goes.
    await waitFor(() => expect(screen.queryByTestId('renewal-funding-BALANCE')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({ body: { funding: 'BALANCE' } });
  });

  it('is not shown without saved cards, or for a subscription that does not renew by itself', async () => {
    signInAs();
    mockApi({ available: false, provider: 'STRIPE', card: null });
    const { unmount } = renderApp(`/subscriptions/${makeSubscription().id}`);
    expect(await screen.findByTestId('subscription-detail')).toBeInTheDocument();
    expect(screen.queryByTestId('renewal-funding-BALANCE')).not.toBeInTheDocument();
    unmount();
    mockApi(CARD, { isRecurrent: false });
    renderApp(`/subscriptions/${makeSubscription().id}`);
    expect(await screen.findByTestId('subscription-detail')).toBeInTheDocument();
    expect(screen.queryByTestId('renewal-funding-BALANCE')).not.toBeInTheDocument();
  });
});
