import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../lib/i18n/i18n';
import { loginPathReturningTo, safeReturnPath } from '../lib/navigation';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
} from '../test/render-app';

function mockApi() {
  return mockFetch(({ url }) => {
    if (url === '/api/auth/signin') return jsonResponse(200, CLIENT_SESSION);
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === '/api/auth/logout') return jsonResponse(204);
    if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    return errorResponse(404, 'error.entity.not.found');
  });
}

async function signInThroughTheForm() {
  const user = userEvent.setup();
  await user.type(await screen.findByTestId('login-email'), 'dana@example.com');
  await user.type(screen.getByTestId('login-password'), 'Secret#123');
  await user.click(screen.getByTestId('login-submit'));
}

describe('the address to return to after signing in', () => {
  it('keeps paths of this app, with their search and hash', () => {
    expect(safeReturnPath('/payments?status=PENDING#top')).toBe('/payments?status=PENDING#top');
    expect(safeReturnPath('/subscriptions/42')).toBe('/subscriptions/42');
  });

  it('refuses anything that could leave the origin or that leads back to signing in', () => {
    for (const hostile of [
      '//evil.com',
      '//evil.com/payments',
      '/\\evil.com',
      'https://evil.com',
      'http://evil.com/login',
      'javascript:alert(1)',
      'evil.com',
      '/\t/evil.com',
      '/login',
      '/logout',
      '',
      42,
      null,
    ])
      expect(safeReturnPath(hostile)).toBeNull();
  });

  it('builds a login address that returns, but not to the root', () => {
    expect(loginPathReturningTo('/payments?status=PENDING')).toBe('/login?redirect=%2Fpayments%3Fstatus%3DPENDING');
    expect(loginPathReturningTo('/')).toBe('/login');
    expect(loginPathReturningTo('//evil.com')).toBe('/login');
  });

  it('opens the page that was asked for once the visitor signs in', async () => {
    mockApi();
    const { history } = renderApp('/my-profile');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(history.location.search).toContain('redirect=');

    await signInThroughTheForm();
    await waitFor(() => expect(history.location.pathname).toBe('/my-profile'));
    expect(
      await screen.findByRole('heading', { level: 1, name: translate('he', 'profile.title') }),
    ).toBeInTheDocument();
  });

  it.each(['//evil.com', 'https://evil.com'])('ignores a redirect to %s and opens the home screen', async (hostile) => {
    mockApi();
    const { history } = renderApp(`/login?redirect=${encodeURIComponent(hostile)}`);
    await signInThroughTheForm();
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(history.location.href).not.toContain('evil');
  });
});

describe('addresses the app does not have', () => {
  it('sends a signed-in client who opens a staff console address to the home screen', async () => {
    signInAs();
    mockApi();
    const { history } = renderApp('/clients');
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(screen.queryByTestId('not-found')).not.toBeInTheDocument();
  });

  it('does the same for a staff console record address', async () => {
    signInAs();
    mockApi();
    const { history } = renderApp('/clients/12/show');
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
  });

  it('shows an unknown address as not found inside the app frame, sidebar and balance included', async () => {
    signInAs();
    mockApi();
    renderApp('/no-such-page');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
    expect(screen.getByTestId('balance')).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });
});

describe('a session staff ended', () => {
  it('lands on the sign-in page saying staff changed the sign-in, and signing in returns to the page', async () => {
    signInAs({ accessToken: 'old' });
    let signedInAgain = false;
    mockFetch(({ url }) => {
      if (url === '/api/auth/token/refresh') return errorResponse(401, 'error.session.ended.by.staff');
      if (url === '/api/auth/signin') {
        signedInAgain = true;
        return jsonResponse(200, CLIENT_SESSION);
      }
      if (url === '/api/users/me')
        return signedInAgain ? jsonResponse(200, makeUser()) : errorResponse(401, 'error.session.expired');
      return errorResponse(404, 'error.entity.not.found');
    });
    const { history } = renderApp('/my-profile');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('session-ended-notice')).toHaveTextContent(
      formatErrorMessage('error.session.ended.by.staff', 'he'),
    );

    await signInThroughTheForm();
    await waitFor(() => expect(history.location.pathname).toBe('/my-profile'));
  });
});

describe('a role staff changed', () => {
  it('follows a client made ambassador without a new sign-in', async () => {
    signInAs({ userRole: 'CLIENT' });
    mockFetch(({ url }) =>
      url === '/api/users/me'
        ? jsonResponse(200, makeUser({ role: 'AMBASSADOR' }))
        : errorResponse(404, 'error.entity.not.found'),
    );
    renderApp('/help');
    const { useUserStore } = await import('../lib/stores/user-store');
    await waitFor(() => expect(useUserStore.getState().userRole).toBe('AMBASSADOR'));
    expect(useUserStore.getState().accessToken).not.toBeNull();
  });

  it('signs out a client made staff and says the staff console is where to sign in', async () => {
    signInAs({ userRole: 'CLIENT' });
    const { calls } = mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ role: 'MANAGER' }));
      if (url === '/api/auth/logout') return jsonResponse(204);
      return errorResponse(404, 'error.entity.not.found');
    });
    const { history } = renderApp('/help');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('staff-notice')).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/auth/logout')).toBe(true);
  });
});
