import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { useUserStore } from '../../lib/stores/user-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';
import { EMAIL_CHANGE_TEXT } from './email-change-text';

describe('change of e-mail (ADR 0100)', () => {
  it('checks the address and the password before asking', async () => {
    signInAs();
    const { calls } = mockFetch(() => jsonResponse(200, makeUser()));
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-newEmail', {}, { timeout: 15_000 }), 'x@y');
    await user.click(screen.getByTestId('profile-email-submit'));
    expect(screen.getByTestId('profile-newEmail')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('profile-email-currentPassword')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.url === '/api/email')).toBe(false);
    // No code is asked while two-factor sign-in is off.
    expect(screen.queryByTestId('profile-email-otp')).toBeNull();
  });

  it('sends the address as the API stores it, then says where the link went', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/email' ? jsonResponse(204) : jsonResponse(200, makeUser()),
    );
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-newEmail', {}, { timeout: 15_000 }), ' D@Ex.co ');
    await user.type(screen.getByTestId('profile-email-currentPassword'), 'Pw#1');
    await user.click(screen.getByTestId('profile-email-submit'));
    expect(await screen.findByTestId('profile-email-sent')).toHaveTextContent('d@ex.co');
    expect(calls.find((call) => call.url === '/api/email')).toMatchObject({
      method: 'POST',
      body: { newEmail: 'd@ex.co', currentPassword: 'Pw#1', language: 'he' },
    });
  });

  it('says a taken address on its field and a wrong password on its own', async () => {
    signInAs();
    let answer = errorResponse(409, 'error.login.already.in.use');
    mockFetch(({ url }) => (url === '/api/email' ? answer : jsonResponse(200, makeUser())));
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-newEmail', {}, { timeout: 15_000 }), 't@ex.co');
    await user.type(screen.getByTestId('profile-email-currentPassword'), 'Pw#1');
    await user.click(screen.getByTestId('profile-email-submit'));
    const address = screen.getByTestId('profile-newEmail');
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(formatErrorMessage('error.login.already.in.use', 'he'));

    answer = errorResponse(400, 'error.password.current.incorrect');
    await user.click(screen.getByTestId('profile-email-submit'));
    const password = screen.getByTestId('profile-email-currentPassword');
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveFocus();
  });

  it('asks for a code while two-factor sign-in is on, and says a reused one on the code field', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/email'
        ? errorResponse(400, 'error.otp.reused')
        : jsonResponse(200, makeUser({ twoFactorEnabled: true })),
    );
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-newEmail', {}, { timeout: 15_000 }), 'n@ex.co');
    await user.type(screen.getByTestId('profile-email-currentPassword'), 'Pw#1');
    await user.click(screen.getByTestId('profile-email-submit'));
    expect(calls.some((call) => call.url === '/api/email')).toBe(false);
    await user.type(screen.getByTestId('profile-email-otp'), '444444');
    await user.click(screen.getByTestId('profile-email-submit'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/email')?.body).toMatchObject({ otpCode: '444444' }),
    );
    expect(await screen.findByText(formatErrorMessage('error.otp.reused', 'he'))).toBeInTheDocument();
  });

  it('confirms by the link, signs this browser out and offers the login screen', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/email/token' ? jsonResponse(200, { email: 'dana.new@example.com' }) : jsonResponse(204),
    );
    renderApp('/email-change/tok-123');
    expect(await screen.findByTestId('email-change-success')).toHaveTextContent('dana.new@example.com');
    expect(calls[0]).toMatchObject({ url: '/api/email/token', method: 'PUT', body: { token: 'tok-123' } });
    expect(screen.getByRole('link', { name: translate('he', 'common.toLogin') })).toHaveAttribute('href', '/login');
    await waitFor(() => expect(useUserStore.getState().accessToken).toBeNull());
  });

  it('says why a link does not work', async () => {
    mockFetch(() => errorResponse(409, 'error.email.change.address.taken'));
    renderApp('/email-change/tok-late');
    expect(await screen.findByTestId('email-change-error')).toHaveTextContent(
      formatErrorMessage('error.email.change.address.taken', 'he'),
    );
    expect(screen.getByTestId('email-change-error')).toHaveTextContent(EMAIL_CHANGE_TEXT.he.failed);
  });
});
