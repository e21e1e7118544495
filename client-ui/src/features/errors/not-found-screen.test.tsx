import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

// The fallback to the root when there is no page to go back to is covered in app/guards.test.tsx.
describe('not-found screen', () => {
  it('goes back to the previous page in history rather than to the root', async () => {
    signInAs();
    mockFetch(({ url }) =>
      url === '/api/users/me' ? jsonResponse(200, makeUser()) : errorResponse(404, 'error.entity.not.found'),
    );
    const user = userEvent.setup();
    const { history } = renderApp('/help');
    expect(await screen.findByRole('heading', { level: 1, name: translate('he', 'help.title') })).toBeInTheDocument();

    act(() => history.push('/no-such-page'));
    const notFound = await screen.findByTestId('not-found');
    expect(notFound).toHaveTextContent(formatErrorMessage('error.page.not.found', 'he'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'notFound.title'));

    // The root would lead to /subscriptions, so landing on /help proves the history step.
    await user.click(screen.getByRole('button', { name: translate('he', 'notFound.back') }));
    await waitFor(() => expect(history.location.pathname).toBe('/help'));
    expect(history.length).toBe(2);
  });

  it('asks a visitor without a session to sign in first, and keeps the address', async () => {
    mockFetch(() => jsonResponse(204));
    const { history } = renderApp('/no-such-page');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(history.location.search).toContain('no-such-page');
  });
});
