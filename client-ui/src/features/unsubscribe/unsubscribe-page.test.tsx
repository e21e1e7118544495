import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { errorResponse, jsonResponse, mockFetch, renderApp, signInAs } from '../../test/render-app';

describe('unsubscribe page', () => {
  it('says what the button does, calls nothing until it is pressed, then unsubscribes with the token', async () => {
    const { calls } = mockFetch(() => jsonResponse(204));
    const user = userEvent.setup();
    renderApp('/unsubscribe?token=u-1.sig');
    expect(await screen.findByTestId('unsubscribe-intro')).toHaveTextContent(translate('he', 'unsubscribe.intro'));
    expect(calls).toHaveLength(0);
    await user.click(screen.getByTestId('unsubscribe-submit'));
    expect(await screen.findByTestId('unsubscribe-done')).toHaveTextContent(translate('he', 'unsubscribe.done'));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/announcements/unsubscribe?token=u-1.sig', method: 'POST' });
    expect(calls[0].body).toBeUndefined();
  });

  it('speaks the stored language', async () => {
    useLangStore.setState({ lang: 'en' });
    mockFetch(() => jsonResponse(204));
    renderApp('/unsubscribe?token=u-1.sig');
    expect(await screen.findByRole('heading', { name: translate('en', 'unsubscribe.title') })).toBeInTheDocument();
    expect(screen.getByTestId('unsubscribe-intro')).toHaveTextContent('You will no longer receive announcements');
  });

  it('shows the catalogue message for a forged token and lets the reader try again', async () => {
    mockFetch(() => errorResponse(400, 'error.unsubscribe.link.invalid'));
    const user = userEvent.setup();
    renderApp('/unsubscribe?token=forged');
    await user.click(await screen.findByTestId('unsubscribe-submit'));
    expect(await screen.findByTestId('unsubscribe-error')).toHaveTextContent(
      formatErrorMessage('error.unsubscribe.link.invalid', 'he'),
    );
    expect(screen.queryByTestId('unsubscribe-done')).toBeNull();
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('says a link without a token is not valid, without asking the API', async () => {
    const { calls } = mockFetch(() => jsonResponse(204));
    renderApp('/unsubscribe');
    expect(await screen.findByTestId('unsubscribe-error')).toHaveTextContent(
      formatErrorMessage('error.unsubscribe.link.invalid', 'he'),
    );
    expect(screen.queryByTestId('unsubscribe-submit')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('works for a signed-in visitor without sending their session', async () => {
    signInAs({ accessToken: 'someone-else' });
    const { calls } = mockFetch(() => jsonResponse(204));
    const user = userEvent.setup();
    renderApp('/unsubscribe?token=u-2.sig');
    await user.click(await screen.findByTestId('unsubscribe-submit'));
    expect(await screen.findByTestId('unsubscribe-done')).toBeInTheDocument();
    const call = calls.find((recorded) => recorded.url.startsWith('/api/announcements/unsubscribe'));
    expect(call?.headers.authorization).toBeUndefined();
  });
});
