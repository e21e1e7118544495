import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { SUPPORT_EMAIL, SUPPORT_TELEGRAM_URL } from '../../../app/access';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import { useUserStore } from '../../../lib/stores/user-store';
import { errorResponse, jsonResponse, mockFetch, renderApp } from '../../../test/render-app';

describe('blocked account notice', () => {
  it('is where a sign-in answered with the blocked code lands, in Hebrew', async () => {
    const { calls } = mockFetch(({ url }) =>
      url === '/api/auth/signin' ? errorResponse(403, 'error.account.blocked') : jsonResponse(204),
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
    expect(screen.getByText(translate('he', 'blocked.body'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: translate('he', 'help.telegram') })).toHaveAttribute(
      'href',
      SUPPORT_TELEGRAM_URL,
    );
    expect(screen.getByRole('link', { name: SUPPORT_EMAIL })).toHaveAttribute('href', `mailto:${SUPPORT_EMAIL}`);
    expect(screen.getByRole('link', { name: translate('he', 'common.toLogin') })).toHaveAttribute('href', '/login');
    // The notice is the explanation: no toast repeats it and no session is kept.
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(useUserStore.getState().accessToken).toBeNull();
    expect(calls.filter((call) => call.url === '/api/auth/signin')).toHaveLength(1);
  });

  it('speaks English when the language store says en', async () => {
    useLangStore.getState().setLang('en');
    const { calls } = mockFetch(() => jsonResponse(204));
    renderApp('/blocked');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('Account blocked');
    const notice = screen.getByTestId('blocked-notice');
    expect(notice).toHaveTextContent('Your account is blocked');
    expect(notice).toHaveTextContent(formatErrorMessage('error.account.blocked', 'en'));
    expect(screen.getByText(translate('en', 'blocked.body'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByText(formatErrorMessage('error.account.blocked', 'he'))).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
