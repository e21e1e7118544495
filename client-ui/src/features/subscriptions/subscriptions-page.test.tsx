import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { translate } from '../../lib/i18n/i18n';
import { jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

describe('subscriptions page', () => {
  it('tells a client without subscriptions what to do, and links to the packages', async () => {
    signInAs();
    mockFetch(({ url }) => (url === '/api/users/me' ? jsonResponse(200, makeUser()) : jsonResponse(204)));
    const user = userEvent.setup();
    const { history } = renderApp('/subscriptions');

    expect(await screen.findByTestId('empty-state')).toHaveTextContent(translate('he', 'subscriptions.empty'));
    const link = screen.getByTestId('subscriptions-to-packages');
    expect(link).toHaveAttribute('href', '/packages');
    expect(link).toHaveTextContent(translate('he', 'subscriptions.toPackages'));
    await user.click(link);
    await waitFor(() => expect(history.location.pathname).toBe('/packages'));
  });
});
