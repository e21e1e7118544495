import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, LIMITS } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { errorResponse, jsonResponse, mockFetch, renderApp, type RecordedCall } from '../../../test/render-app';

const resets = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/password/token');
const RULES_MESSAGE = formatErrorMessage('error.validation.password.rules', 'he', { length: LIMITS.passwordMinLength });

describe('set password', () => {
  it('checks the password rules and the confirmation before sending, then sends the token and leads to login', async () => {
    const { calls } = mockFetch(() => jsonResponse(204));
    const user = userEvent.setup();
    const { history } = renderApp('/set-password/tok-42');
    expect(
      await screen.findByRole('heading', { level: 1, name: translate('he', 'setPassword.title') }),
    ).toBeInTheDocument();

    // Lowercase letters and digits only: the proto rules also want an uppercase letter and a special character.
    await user.type(screen.getByTestId('set-password-password'), 'secret123');
    await user.type(screen.getByTestId('set-password-confirm'), 'secret123');
    await user.click(screen.getByTestId('set-password-submit'));
    expect(screen.getByText(RULES_MESSAGE)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('set-password-password'));
    await user.type(screen.getByTestId('set-password-password'), 'Secret#123');
    await user.clear(screen.getByTestId('set-password-confirm'));
    await user.type(screen.getByTestId('set-password-confirm'), 'Secret#124');
    await user.click(screen.getByTestId('set-password-submit'));
    expect(screen.getByText(formatErrorMessage('error.validation.passwords.do.not.match', 'he'))).toBeInTheDocument();
    expect(screen.queryByText(RULES_MESSAGE)).toBeNull();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('set-password-confirm'));
    await user.type(screen.getByTestId('set-password-confirm'), 'Secret#123');
    await user.click(screen.getByTestId('set-password-submit'));
    expect(await screen.findByTestId('set-password-done')).toHaveTextContent(translate('he', 'setPassword.done'));
    expect(screen.queryByTestId('set-password-submit')).not.toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: '/api/password/token',
      method: 'PUT',
      body: { token: 'tok-42', password: 'Secret#123', confirmPassword: 'Secret#123' },
    });
    // The reset link carries no session, so the request must not present one.
    expect(calls[0].headers.authorization).toBeUndefined();

    await user.click(screen.getByRole('link', { name: translate('he', 'common.toLogin') }));
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
  });

  it('shows the catalogue message when the server refuses the link and keeps the form', async () => {
    const { calls } = mockFetch(() => errorResponse(400, 'error.confirmation.token.invalid', 'Token not found'));
    const user = userEvent.setup();
    renderApp('/set-password/expired');
    await user.type(await screen.findByTestId('set-password-password'), 'Secret#123');
    await user.type(screen.getByTestId('set-password-confirm'), 'Secret#123');
    await user.click(screen.getByTestId('set-password-submit'));

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.errorTitle'));
    expect(toast).toHaveTextContent(formatErrorMessage('error.confirmation.token.invalid', 'he'));
    expect(toast).not.toHaveTextContent('Token not found');
    expect(screen.queryByTestId('set-password-done')).not.toBeInTheDocument();
    expect(screen.getByTestId('set-password-submit')).toBeEnabled();
    expect(resets(calls)).toHaveLength(1);
    expect(resets(calls)[0].body).toEqual({ token: 'expired', password: 'Secret#123', confirmPassword: 'Secret#123' });
  });
});
