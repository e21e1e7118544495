import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDollars } from '../../lib/format';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { jsonResponse, makeUser, mockFetch, pageOf, renderApp, signInAs } from '../../test/render-app';

function mockWithBalance(balance: number) {
  return mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser({ balance }));
    if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    return jsonResponse(404, { status: 404, error: 'error.entity.not.found', message: '' });
  });
}

describe('negative balance notice', () => {
  it('explains in Hebrew that a staff correction took the balance below zero, and how to settle it', async () => {
    signInAs();
    mockWithBalance(-42.1);
    const user = userEvent.setup();
    const { history } = renderApp('/payments');

    const notice = await screen.findByTestId('negative-balance-notice');
    expect(notice).toHaveTextContent('היתרה שלכם שלילית');
    expect(notice).toHaveTextContent('צוות קופה תיקן תשלום');
    // Both amounts are isolated inside the Hebrew sentence, in the order the Hebrew format gives them.
    const amounts = [...notice.querySelectorAll('bdi')];
    expect(amounts.map((node) => node.textContent)).toEqual([formatDollars(-42.1, 'he'), formatDollars(42.1, 'he')]);
    await user.click(screen.getByTestId('negative-balance-settle'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/deposit'));
  });

  it('says the same in English', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockWithBalance(-0.5);
    renderApp('/payments');
    const notice = await screen.findByTestId('negative-balance-notice');
    expect(notice).toHaveTextContent('Your balance is below zero: -$0.50');
    expect(notice).toHaveTextContent('deposit at least $0.50');
    expect(notice).toHaveTextContent(translate('en', 'balance.negative.settle'));
  });

  it('stays away at a zero or positive balance', async () => {
    signInAs();
    mockWithBalance(0);
    renderApp('/payments');
    // The balance in the app bar shows that the account was read.
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toContain(formatDollars(0, 'he')));
    expect(screen.queryByTestId('negative-balance-notice')).not.toBeInTheDocument();
  });
});
