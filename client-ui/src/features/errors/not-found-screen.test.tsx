import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { jsonResponse, mockFetch, renderApp } from '../../test/render-app';

// The fallback to the root when there is no page to go back to is covered in app/guards.test.tsx.
describe('not-found screen', () => {
  it('goes back to the previous page in history rather than to the root', async () => {
    mockFetch(() => jsonResponse(204));
    const user = userEvent.setup();
    const { history } = renderApp('/reset-password');
    expect(await screen.findByTestId('reset-email')).toBeInTheDocument();

    act(() => history.push('/no-such-page'));
    const notFound = await screen.findByTestId('not-found');
    expect(notFound).toHaveTextContent(formatErrorMessage('error.page.not.found', 'he'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'notFound.title'));

    // Without a session the root would lead to /login, so landing on /reset-password proves the history step.
    await user.click(screen.getByRole('button', { name: translate('he', 'notFound.back') }));
    await waitFor(() => expect(history.location.pathname).toBe('/reset-password'));
    expect(await screen.findByTestId('reset-email')).toBeInTheDocument();
    expect(history.length).toBe(2);
  });
});
