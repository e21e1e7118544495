import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import { useUserStore } from '../../../lib/stores/user-store';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makeUser,
  mockFetch,
  renderApp,
  signInAs,
} from '../../../test/render-app';

describe('login', () => {
  it('redirects to / (and on to the first sidebar entry) when an access token exists', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/users/me' ? jsonResponse(200, makeUser()) : errorResponse(404, 'error.entity.not.found'),
    );
    const { history } = renderApp('/login');
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(
      await screen.findByRole('heading', { level: 1, name: translate('he', 'subscriptions.title') }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('login-form')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/auth/signin')).toBe(false);
  });

  it('signs in, stores the session and opens the home screen', async () => {
    const { calls } = mockFetch(({ url }) => {
      if (url === '/api/auth/signin') return jsonResponse(200, CLIENT_SESSION);
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      return errorResponse(404, 'error.entity.not.found');
    });
    const user = userEvent.setup();
    const { history } = renderApp('/login');
    await user.type(await screen.findByTestId('login-email'), 'dana@example.com');
    await user.type(screen.getByTestId('login-password'), 'Secret#123');
    await user.click(screen.getByTestId('login-submit'));

    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(calls[0].body).toEqual({ email: 'dana@example.com', password: 'Secret#123' });
    expect(useUserStore.getState()).toMatchObject({
      accessToken: 'access-1',
      userRole: 'CLIENT',
      email: 'dana@example.com',
    });
    expect(await screen.findByTestId('balance')).toHaveTextContent('1,234.50');
  });

  it('asks for the authenticator code as a second step and sends it with the password (ADR 0098)', async () => {
    const { calls } = mockFetch(({ url, body }) => {
      if (url === '/api/auth/signin')
        return (body as { otp?: string }).otp === '123456'
          ? jsonResponse(200, CLIENT_SESSION)
          : errorResponse(401, 'error.otp.required');
      if (url === '/api/users/me') return jsonResponse(200, makeUser({ twoFactorEnabled: true }));
      return errorResponse(404, 'error.entity.not.found');
    });
    const user = userEvent.setup();
    const { history } = renderApp('/login');
    await user.type(await screen.findByTestId('login-email'), 'dana@example.com');
    await user.type(screen.getByTestId('login-password'), 'Secret#123');
    await user.click(screen.getByTestId('login-submit'));

    // Asking for the code is no error to show: the step appears, with the phone's one-time-code autofill.
    const code = await screen.findByTestId('login-otp');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
    await user.type(code, '123456');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(calls.filter((call) => call.url === '/api/auth/signin').map((call) => call.body)).toEqual([
      { email: 'dana@example.com', password: 'Secret#123' },
      { email: 'dana@example.com', password: 'Secret#123', otp: '123456' },
    ]);
  });

  it('offers to resend the confirmation link when the e-mail is not verified', async () => {
    const { calls } = mockFetch(({ url }) =>
      url === '/api/auth/signin' ? errorResponse(403, 'error.user.email.not.verified') : jsonResponse(204),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByTestId('login-email'), 'new@example.com');
    await user.type(screen.getByTestId('login-password'), 'Secret#123');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      formatErrorMessage('error.user.email.not.verified', 'he'),
    );
    await user.click(screen.getByTestId('login-resend'));
    expect(await screen.findByText(translate('he', 'login.resent'))).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({
      url: '/api/users/resend-signup-email',
      body: { email: 'new@example.com', language: 'he' },
    });
    // The inline error explains the failure, so no toast repeats it.
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('does not keep a staff session and points staff to the staff console', async () => {
    const { calls } = mockFetch(({ url }) =>
      url === '/api/auth/signin' ? jsonResponse(200, { ...CLIENT_SESSION, userRole: 'ADMIN' }) : jsonResponse(204),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByTestId('login-email'), 'admin@example.com');
    await user.type(screen.getByTestId('login-password'), 'Secret#123');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('staff-notice')).toBeInTheDocument();
    expect(screen.getByTestId('staff-console-link')).toHaveAttribute('href', '/admin');
    expect(useUserStore.getState().accessToken).toBeNull();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/auth/logout')).toBe(true));
  });

  it('says why when the session ended by policy: the refused refresh leads to the login screen with its reason', async () => {
    signInAs({ accessToken: 'expired' });
    mockFetch(({ url }) =>
      url === '/api/auth/token/refresh'
        ? errorResponse(401, 'error.session.idle', 'idle')
        : errorResponse(401, 'error.session.expired'),
    );
    const { history } = renderApp('/subscriptions');

    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    const notice = await screen.findByTestId('session-ended-notice');
    expect(notice).toHaveTextContent(translate('he', 'login.ended.title'));
    expect(notice).toHaveTextContent(formatErrorMessage('error.session.idle', 'he'));
    expect(useUserStore.getState().accessToken).toBeNull();
  });

  it('explains in English too, and a refusal that explains nothing or a first visit shows the bare form', async () => {
    useLangStore.getState().setLang('en');
    useUserStore.getState().clear('error.session.lifetime.reached');
    const first = renderApp('/login');
    expect(await screen.findByTestId('session-ended-notice')).toHaveTextContent(
      formatErrorMessage('error.session.lifetime.reached', 'en'),
    );
    first.unmount();

    signInAs({ accessToken: 'expired' });
    mockFetch(() => errorResponse(401, 'error.session.expired'));
    const { history } = renderApp('/subscriptions');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(screen.queryByTestId('session-ended-notice')).not.toBeInTheDocument();
  });
});
