import { screen } from '@testing-library/react';
import type { SubscriptionSearchRequest } from '@kupa/proto';
import {
  deferred,
  jsonResponse,
  makeDictionaries,
  makeSubscription,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
} from '../../test/render-app';

/** The trial offer's own question: has any package been bought (one REGULAR row is enough)? */
function asksWhetherBought(body: unknown): boolean {
  const request = body as SubscriptionSearchRequest;
  return request.size === 1 && request.types?.length === 1 && request.types[0] === 'REGULAR';
}

describe('the subscriptions page does not jump', () => {
  it('holds the list back until it is known whether the trial offer leads, then shows both at once', async () => {
    signInAs();
    const bought = deferred<Response>();
    mockFetch(({ url, body }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: false, trialRejected: false }));
      if (url === '/api/subscriptions/search')
        return asksWhetherBought(body) ? bought.promise : jsonResponse(200, pageOf([]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/subscriptions');

    // The user and the list are in; whether a package was bought is not: only the skeleton shows.
    expect(await screen.findByTestId('subscriptions-skeleton')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('empty-state')).not.toBeInTheDocument();
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();

    bought.resolve(jsonResponse(200, pageOf([])));
    expect(await screen.findByTestId('trial-offer')).toBeInTheDocument();
    expect(screen.getByTestId('empty-state')).toBeInTheDocument();
    expect(screen.queryByTestId('subscriptions-skeleton')).not.toBeInTheDocument();
    // The offer comes first, above what the page says about the subscriptions.
    const offer = screen.getByTestId('trial-offer');
    expect(
      offer.compareDocumentPosition(screen.getByTestId('empty-state')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('does not wait for the trial question of a user who used the trial', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true }));
      if (url === '/api/subscriptions/search') return jsonResponse(200, pageOf([makeSubscription()]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/subscriptions');
    expect((await screen.findAllByTestId('subscriptions-row')).length).toBe(1);
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/subscriptions/search' && asksWhetherBought(call.body))).toBe(false);
  });

  it('holds the trial offer back while the list is still coming, so the skeleton is not pushed down', async () => {
    signInAs();
    const list = deferred<Response>();
    mockFetch(({ url, body }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: false, trialRejected: false }));
      if (url === '/api/subscriptions/search')
        return asksWhetherBought(body) ? jsonResponse(200, pageOf([])) : list.promise;
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/subscriptions');

    // Whether the trial offer leads is known; the list is not in: only the skeleton shows.
    expect(await screen.findByTestId('subscriptions-skeleton')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();

    list.resolve(jsonResponse(200, pageOf([])));
    expect(await screen.findByTestId('trial-offer')).toBeInTheDocument();
    expect(screen.getByTestId('empty-state')).toBeInTheDocument();
  });
});
