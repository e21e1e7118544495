import { screen } from '@testing-library/react';
import {
  deferred,
  jsonResponse,
  makeDictionaries,
  makePlan,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
} from '../../test/render-app';

describe('the packages page does not jump', () => {
  it('holds the packages back until it is known whether the trial offer leads, then shows both at once', async () => {
    signInAs();
    const subscriptions = deferred<Response>();
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: false, trialRejected: false }));
      if (url === '/api/subscriptions/search') return subscriptions.promise;
      if (url === '/api/payment-plans/search') return jsonResponse(200, pageOf([makePlan()]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/packages');

    // The user and the packages are in; whether a package was bought is not: only the skeleton shows.
    expect(await screen.findByTestId('plans-skeleton')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('plans')).not.toBeInTheDocument();
    expect(screen.queryByTestId('packages-balance')).not.toBeInTheDocument();
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();

    subscriptions.resolve(jsonResponse(200, pageOf([])));
    expect(await screen.findByTestId('trial-offer')).toBeInTheDocument();
    expect(screen.getByTestId('plans')).toBeInTheDocument();
    expect(screen.queryByTestId('plans-skeleton')).not.toBeInTheDocument();
    // The offer comes first, above the packages, as it did.
    const offer = screen.getByTestId('trial-offer');
    expect(offer.compareDocumentPosition(screen.getByTestId('plans')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('does not wait for the subscriptions of a user who used the trial', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true }));
      if (url === '/api/payment-plans/search') return jsonResponse(200, pageOf([makePlan()]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/packages');
    expect(await screen.findByTestId('plans')).toBeInTheDocument();
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/subscriptions/search')).toBe(false);
  });

  it('holds the trial offer back while the packages are still coming, so the skeleton is not pushed down', async () => {
    signInAs();
    const packages = deferred<Response>();
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: false, trialRejected: false }));
      if (url === '/api/subscriptions/search') return jsonResponse(200, pageOf([]));
      if (url === '/api/payment-plans/search') return packages.promise;
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries());
      return jsonResponse(200, pageOf([]));
    });
    renderApp('/packages');

    // Whether the trial offer leads is known; the packages are not in: only the skeleton shows.
    expect(await screen.findByTestId('plans-skeleton')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('trial-offer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('packages-balance')).not.toBeInTheDocument();

    packages.resolve(jsonResponse(200, pageOf([makePlan()])));
    expect(await screen.findByTestId('trial-offer')).toBeInTheDocument();
    expect(screen.getByTestId('plans')).toBeInTheDocument();
  });
});
