import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import { useUserStore } from '../../../lib/stores/user-store';
import {
  errorResponse,
  jsonResponse,
  makeDictionaries,
  makeUser,
  mockFetch,
  renderApp,
  signInAs,
  SUPPORT_CONTACTS,
} from '../../../test/render-app';

describe('blocked account notice', () => {
  it('is where a sign-in answered with the blocked code lands, in Hebrew', async () => {
    const { calls } = mockFetch(({ url }) =>
      url === '/api/auth/signin'
        ? errorResponse(403, 'error.account.blocked')
        : url === '/api/dictionaries'
          ? jsonResponse(200, makeDictionaries())
          : jsonResponse(204),
    );
    const user = userEvent.setup();
    const { history } = renderApp('/login');
    await user.type(await screen.findByTestId('login-email'), 'blocked@example.com');
    await user.type(screen.getByTestId('login-password'), 'Secret#123');
    await user.click(screen.getByTestId('login-submit'));

    await waitFor(() => expect(history.location.pathname).toBe('/blocked'));
    expect(
      await screen.findByRole('heading', { level: 1, name: translate('he', 'blocked.title') }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('blocked-notice')).toHaveTextContent(formatErrorMessage('error.account.blocked', 'he'));
    expect(await screen.findByText(translate('he', 'blocked.body'))).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: translate('he', 'help.telegram') })).toHaveAttribute(
      'href',
      SUPPORT_CONTACTS.telegram,
    );
    expect(screen.getByRole('link', { name: SUPPORT_CONTACTS.email ?? '' })).toHaveAttribute(
      'href',
      `mailto:${SUPPORT_CONTACTS.email}`,
    );
    expect(screen.getByRole('link', { name: translate('he', 'common.toLogin') })).toHaveAttribute('href', '/login');
    // The notice is the explanation: no toast repeats it and no session is kept.
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(useUserStore.getState().accessToken).toBeNull();
    expect(calls.filter((call) => call.url === '/api/auth/signin')).toHaveLength(1);
  });

  it('speaks English when the language store says en, and shows only the contacts configured', async () => {
    useLangStore.getState().setLang('en');
    const { calls } = mockFetch(({ url }) =>
      url === '/api/dictionaries'
        ? jsonResponse(200, makeDictionaries({ telegram: 'https://t.me/kupa_help', email: null }))
        : jsonResponse(204),
    );
    renderApp('/blocked');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('Account blocked');
    const notice = screen.getByTestId('blocked-notice');
    expect(notice).toHaveTextContent('Your account is blocked');
    expect(notice).toHaveTextContent(formatErrorMessage('error.account.blocked', 'en'));
    expect(await screen.findByText(translate('en', 'blocked.body'))).toBeInTheDocument();
    expect(screen.getByTestId('support-telegram')).toHaveAttribute('href', 'https://t.me/kupa_help');
    expect(screen.queryByTestId('support-email')).toBeNull();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByText(formatErrorMessage('error.account.blocked', 'he'))).toBeNull();
    // The contacts are public: nothing else is asked, and no token is sent.
    expect(calls.map((call) => call.url)).toEqual(['/api/dictionaries']);
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  describe('for a client blocked mid-session', () => {
    /** The session works until the staff block lands; then every call answers as the API does for a blocked user. */
    function api(blocked: { value: boolean }, refusal: 'call' | 'refresh') {
      return mockFetch(({ url }) => {
        if (url === '/api/auth/token/refresh') return errorResponse(403, 'error.account.blocked');
        if (url === '/api/auth/logout') return jsonResponse(204);
        if (blocked.value)
          return refusal === 'call'
            ? errorResponse(403, 'error.account.blocked')
            : errorResponse(401, 'error.token.expired');
        if (url === '/api/users/me') return jsonResponse(200, makeUser());
        return jsonResponse(200, { content: [], page: 0, size: 10, totalElements: 0, totalPages: 0 });
      });
    }

    for (const refusal of ['call', 'refresh'] as const) {
      it(`shows the notice at the next call (${refusal === 'call' ? 'refused by the block' : 'its refresh refused'})`, async () => {
        signInAs();
        const blocked = { value: false };
        api(blocked, refusal);
        const user = userEvent.setup();
        const { history } = renderApp('/my-profile');
        expect(await screen.findByTestId('profile-id')).toBeInTheDocument();

        blocked.value = true;
        await user.click(screen.getByTestId('nav-payments'));

        await waitFor(() => expect(history.location.pathname).toBe('/blocked'));
        expect(await screen.findByTestId('blocked-notice')).toHaveTextContent(
          formatErrorMessage('error.account.blocked', 'he'),
        );
        expect(screen.queryAllByTestId('toast')).toHaveLength(0);
        expect(useUserStore.getState().accessToken).toBeNull();
      });
    }
  });
});
