import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../i18n/i18n';
import { useUserStore } from '../stores/user-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';
import { apiRequest } from './api-client';
import { isConnectionLost } from './api-error';

describe('a lost connection', () => {
  it('is told apart from a server error in the shared fetch layer', async () => {
    signInAs();
    mockFetch(({ url }) => {
      if (url === '/api/users/me') throw new TypeError('Failed to fetch');
      return errorResponse(500, 'error.internal.server.error');
    });
    const offline = await apiRequest('/users/me').catch((error: unknown) => error);
    expect(isConnectionLost(offline)).toBe(true);
    const broken = await apiRequest('/payments/1').catch((error: unknown) => error);
    expect(isConnectionLost(broken)).toBe(false);
  });

  it('keeps the session when even the refresh cannot reach the server', async () => {
    signInAs({ accessToken: 'expired' });
    mockFetch(({ url }) => {
      if (url === '/api/auth/token/refresh') throw new TypeError('Failed to fetch');
      return errorResponse(401, 'error.session.expired');
    });
    const error = await apiRequest('/users/me').catch((caught: unknown) => caught);
    expect(isConnectionLost(error)).toBe(true);
    expect(useUserStore.getState().accessToken).toBe('expired');
  });

  it('says "no connection" with a retry that reads again and closes the notice once it works', async () => {
    signInAs();
    let online = false;
    mockFetch(({ url }) => {
      if (url === '/api/users/me') {
        if (!online) throw new TypeError('Failed to fetch');
        return jsonResponse(200, makeUser());
      }
      return errorResponse(404, 'error.entity.not.found');
    });
    const user = userEvent.setup();
    renderApp('/my-profile');

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.connectionTitle'));
    expect(toast).toHaveTextContent(formatErrorMessage('error.connection.lost', 'he'));
    expect(toast).not.toHaveTextContent(formatErrorMessage('error.internal.server.error', 'he'));

    online = true;
    await user.click(within(toast).getByRole('button', { name: translate('he', 'toast.retry') }));
    expect(await screen.findByTestId('profile-id')).toHaveTextContent('12345678');
    await waitFor(() => expect(screen.queryByTestId('toast')).not.toBeInTheDocument());
  });

  it('offers no retry for a server error, which says what the server said', async () => {
    signInAs();
    mockFetch(({ url }) =>
      url === '/api/users/me' ? errorResponse(500, 'error.internal.server.error') : jsonResponse(204),
    );
    renderApp('/my-profile');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.errorTitle'));
    expect(within(toast).queryByTestId('toast-retry')).not.toBeInTheDocument();
  });

  it('offers a retry when the server is busy for a moment, with the catalogue’s message', async () => {
    signInAs();
    let busy = true;
    mockFetch(({ url }) => {
      if (url === '/api/users/me')
        return busy ? errorResponse(503, 'error.service.unavailable') : jsonResponse(200, makeUser());
      return errorResponse(404, 'error.entity.not.found');
    });
    const user = userEvent.setup();
    renderApp('/my-profile');

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.errorTitle'));
    expect(toast).toHaveTextContent(formatErrorMessage('error.service.unavailable', 'he'));
    busy = false;
    await user.click(within(toast).getByRole('button', { name: translate('he', 'toast.retry') }));
    expect(await screen.findByTestId('profile-id')).toHaveTextContent('12345678');
    await waitFor(() => expect(screen.queryByTestId('toast')).not.toBeInTheDocument());
  });
});
