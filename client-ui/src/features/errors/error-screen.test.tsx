import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { browser } from '../../lib/browser';
import { translate } from '../../lib/i18n/i18n';
import { jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

describe('error screen', () => {
  it('shows what failed when a screen throws and reloads the page on request', async () => {
    signInAs();
    // An answer without the referral block, as a misconfigured proxy or an older API could send: the referrals
    // screen reads `referrals.link` while rendering and throws.
    const { referrals: _dropped, ...withoutReferrals } = makeUser();
    mockFetch(() => jsonResponse(200, withoutReferrals));
    // jsdom's `location.reload` is neither writable nor configurable; `browser.reload` is the app's one call to it.
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    // React and the router report the caught error on the console; the screen is what this test reads.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/referrals');

    const errorScreen = await screen.findByTestId('error-screen');
    expect(within(errorScreen).getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'error.title'));
    expect(errorScreen).toHaveTextContent(formatErrorMessage('error.something.went.wrong', 'he'));
    expect(within(errorScreen).getByRole('alert')).toHaveTextContent(
      "Cannot read properties of undefined (reading 'link')",
    );
    expect(consoleError).toHaveBeenCalled();
    // A plain bug is not a stale chunk, so nothing reloads until the user asks.
    expect(reload).not.toHaveBeenCalled();

    await user.click(within(errorScreen).getByRole('button', { name: translate('he', 'error.reload') }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
