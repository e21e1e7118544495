import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { SavedCardView } from '@kupa/proto';
import { browser } from '../../lib/browser';
import { jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

const SAVED: SavedCardView = {
  available: true,
  provider: 'STRIPE',
  card: { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031, savedAt: '2026-11-29T10:00:00.000Z' },
};

/** The profile page's calls: the user, and the saved card as `savedCard` says until it is removed. */
function profileWith(savedCard: SavedCardView) {
  let current = savedCard;
  return mockFetch(({ url, method }) => {
    if (url === '/api/users/me/saved-card' && method === 'DELETE') {
      current = { ...current, card: null };
      return new Response(null, { status: 204 });
    }
    if (url === '/api/users/me/saved-card') return jsonResponse(200, current);
    if (url === '/api/users/me/saved-card/setup')
      return jsonResponse(201, { url: 'https://checkout.stripe.test/c/setup/cs_1' });
    return jsonResponse(200, makeUser());
  });
}

describe('my profile: the saved card', () => {
  it('shows the card by brand, last four digits and expiry, isolated left to right', async () => {
    signInAs();
    profileWith(SAVED);
    renderApp('/my-profile');
    const number = await screen.findByTestId('saved-card-number');
    expect(number).toHaveTextContent('VISA •••• 4242');
    expect(number.tagName).toBe('BDI');
    expect(screen.getByTestId('saved-card-expiry')).toHaveTextContent('בתוקף עד 03/2031');
    expect(screen.getByTestId('saved-card-setup')).toHaveTextContent('החלפת הכרטיס');
  });

  it("goes to Stripe's setup page to save a card", async () => {
    signInAs();
    const { calls } = profileWith({ available: true, provider: 'STRIPE', card: null });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/my-profile');
    expect(await screen.findByTestId('saved-card-none')).toBeInTheDocument();
    await user.click(screen.getByTestId('saved-card-setup'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/setup/cs_1'));
    expect(calls.filter((call) => call.url === '/api/users/me/saved-card/setup')).toHaveLength(1);
  });

  it('says when saving goes to the sandbox test page rather than Stripe', async () => {
    signInAs();
    profileWith({ available: true, provider: 'SANDBOX', card: null });
    renderApp('/my-profile');
    expect(await screen.findByTestId('saved-card-hint')).toHaveTextContent('כרטיסי ניסוי: השמירה עוברת לדף ניסוי');
    expect(screen.getByTestId('saved-card-hint')).not.toHaveTextContent('המאובטח של Stripe');
  });

  it('removes the card only after the confirmation', async () => {
    signInAs();
    const { calls } = profileWith(SAVED);
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('saved-card-remove'));
    expect(await screen.findByTestId('saved-card-remove-dialog')).toBeInTheDocument();
    await user.click(screen.getByTestId('saved-card-remove-cancel'));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('saved-card-remove'));
    await user.click(await screen.findByTestId('saved-card-remove-confirm'));
    expect(await screen.findByTestId('saved-card-none')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('is not shown where saving a card is not offered', async () => {
    signInAs();
    profileWith({ available: false, provider: 'STRIPE', card: null });
    renderApp('/my-profile');
    expect(await screen.findByTestId('profile-full-name')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('כרטיס שמור')).not.toBeInTheDocument());
    expect(screen.queryByTestId('saved-card-setup')).not.toBeInTheDocument();
  });

  it('with card payments switched off, still shows a card saved before so that it can be removed', async () => {
    signInAs();
    const { calls } = profileWith({ ...SAVED, available: false });
    const user = userEvent.setup();
    renderApp('/my-profile');
    expect(await screen.findByTestId('saved-card-number')).toHaveTextContent('VISA •••• 4242');
    expect(screen.getByTestId('saved-card-hint')).toHaveTextContent('אפשר עדיין להסיר');
    expect(screen.queryByTestId('saved-card-setup')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('saved-card-remove'));
    await user.click(await screen.findByTestId('saved-card-remove-confirm'));
    await waitFor(() => expect(screen.queryByText('כרטיס שמור')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
