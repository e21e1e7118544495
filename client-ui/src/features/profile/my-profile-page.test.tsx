import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makeUser,
  mockFetch,
  renderApp,
  signInAs,
} from '../../test/render-app';
import { TWO_FACTOR_TEXT } from '../../lib/ui/two-factor-text';

describe('my profile', () => {
  it('shows the user details with LTR tokens isolated', async () => {
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser()));
    renderApp('/my-profile');
    expect(await screen.findByTestId('profile-full-name')).toHaveTextContent('Dana Levi');
    expect(within(screen.getByTestId('profile-email')).getByText('dana@example.com').tagName).toBe('BDI');
    expect(screen.getByTestId('profile-role')).toHaveTextContent('לקוח');
    expect(screen.getByTestId('profile-status')).toHaveTextContent('פעיל');
    expect(screen.getByTestId('profile-balance')).toHaveTextContent('1,234.50');
  });

  it('saves a new name and reloads the user', async () => {
    signInAs();
    let lastName = 'Levi';
    const { calls } = mockFetch(({ method, body }) => {
      if (method === 'PUT') {
        lastName = (body as { lastName: string }).lastName;
        return jsonResponse(200, makeUser({ lastName, fullName: `Dana ${lastName}` }));
      }
      return jsonResponse(200, makeUser({ lastName, fullName: `Dana ${lastName}` }));
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    const input = await screen.findByTestId('profile-last-name');
    await user.clear(input);
    await user.type(input, 'Mizrahi');
    await user.click(screen.getByTestId('profile-name-submit'));
    await waitFor(() => expect(screen.getByTestId('profile-full-name')).toHaveTextContent('Dana Mizrahi'));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      url: `/api/users/${CLIENT_SESSION.userUuid}`,
      body: { firstName: 'Dana', lastName: 'Mizrahi' },
    });
  });

  it('checks the password rules before changing it and says a wrong current password on its field', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/password' ? errorResponse(400, 'error.password.current.incorrect') : jsonResponse(200, makeUser()),
    );
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-oldPassword'), 'Secret#123');
    await user.type(screen.getByTestId('profile-password'), 'Secret#123');
    await user.type(screen.getByTestId('profile-confirmPassword'), 'Secret#124');
    await user.click(screen.getByTestId('profile-password-submit'));
    expect(screen.getByText(formatErrorMessage('error.validation.password.same.as.old', 'he'))).toBeInTheDocument();
    expect(screen.getByText(formatErrorMessage('error.validation.passwords.do.not.match', 'he'))).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/password')).toBe(false);

    await user.clear(screen.getByTestId('profile-password'));
    await user.type(screen.getByTestId('profile-password'), 'Newer#456');
    await user.clear(screen.getByTestId('profile-confirmPassword'));
    await user.type(screen.getByTestId('profile-confirmPassword'), 'Newer#456');
    await user.click(screen.getByTestId('profile-password-submit'));

    const oldPassword = screen.getByTestId('profile-oldPassword');
    await waitFor(() => expect(oldPassword).toHaveAttribute('aria-invalid', 'true'));
    expect(oldPassword).toHaveAccessibleDescription(formatErrorMessage('error.password.current.incorrect', 'he'));
    expect(oldPassword).toHaveFocus();
    // Nothing covers the Save button: no toast repeats the message.
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/password')).toMatchObject({
      method: 'PUT',
      body: { oldPassword: 'Secret#123', password: 'Newer#456', confirmPassword: 'Newer#456' },
    });
  });

  it('still shows another failure of the password change as a toast', async () => {
    signInAs();
    mockFetch(({ url }) =>
      url === '/api/password' ? errorResponse(500, 'error.internal.server.error') : jsonResponse(200, makeUser()),
    );
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('profile-oldPassword'), 'Secret#123');
    await user.type(screen.getByTestId('profile-password'), 'Newer#456');
    await user.type(screen.getByTestId('profile-confirmPassword'), 'Newer#456');
    await user.click(screen.getByTestId('profile-password-submit'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.errorTitle'));
    expect(screen.getByTestId('profile-oldPassword')).not.toHaveAttribute('aria-invalid', 'true');
  });

  describe('two-factor sign-in (ADR 0098)', () => {
    it('turns it on: QR code, a first code, then the recovery codes shown once', async () => {
      signInAs();
      let enabled = false;
      const { calls } = mockFetch(({ url }) => {
        if (url === '/api/auth/two-factor/enrolment')
          return jsonResponse(201, {
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            otpauthUri: 'otpauth://totp/Kupa:dana@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
          });
        if (url === '/api/auth/two-factor/activation') {
          if (calls.filter((call) => call.url === url).length === 1) return errorResponse(400, 'error.otp.invalid');
          enabled = true;
          return jsonResponse(200, { recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'tuvw-xyz2-3456-789a'] });
        }
        return jsonResponse(200, makeUser({ twoFactorEnabled: enabled }));
      });
      const user = userEvent.setup();
      renderApp('/my-profile');
      expect(await screen.findByTestId('two-factor-state')).toHaveTextContent(TWO_FACTOR_TEXT.he.off);
      await user.click(screen.getByTestId('two-factor-turn-on'));
      expect(await screen.findByTestId('two-factor-qr')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
      expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

      await user.type(screen.getByTestId('two-factor-code'), '111111');
      await user.click(screen.getByTestId('two-factor-submit'));
      expect(await screen.findByText(formatErrorMessage('error.otp.invalid', 'he'))).toBeVisible();
      await user.clear(screen.getByTestId('two-factor-code'));
      await user.type(screen.getByTestId('two-factor-code'), '222222');
      await user.click(screen.getByTestId('two-factor-submit'));
      const codes = await screen.findByTestId('two-factor-recovery-codes');
      expect(codes).toHaveTextContent('abcd-efgh-jkmn-pqrs');
      expect(codes).toHaveAttribute('dir', 'ltr');
      await waitFor(() => expect(screen.getByTestId('two-factor-state')).toHaveTextContent(TWO_FACTOR_TEXT.he.on));
      await user.click(screen.getByTestId('two-factor-recovery-saved'));
      expect(screen.queryByTestId('two-factor-recovery-codes')).toBeNull();
      expect(calls.filter((call) => call.url === '/api/auth/two-factor/activation').map((call) => call.body)).toEqual([
        { code: '111111' },
        { code: '222222' },
      ]);
    });

    it('turns it off with a code only', async () => {
      signInAs();
      let enabled = true;
      const { calls } = mockFetch(({ url }) => {
        if (url === '/api/auth/two-factor/deactivation') {
          enabled = false;
          return jsonResponse(204);
        }
        return jsonResponse(200, makeUser({ twoFactorEnabled: enabled }));
      });
      const user = userEvent.setup();
      renderApp('/my-profile');
      await user.click(await screen.findByTestId('two-factor-turn-off'));
      await user.click(screen.getByTestId('two-factor-submit'));
      expect(calls.some((call) => call.url === '/api/auth/two-factor/deactivation')).toBe(false);
      await user.type(screen.getByTestId('two-factor-code'), '333333');
      await user.click(screen.getByTestId('two-factor-submit'));
      await waitFor(() => expect(screen.getByTestId('two-factor-state')).toHaveTextContent(TWO_FACTOR_TEXT.he.off));
      expect(calls.find((call) => call.url === '/api/auth/two-factor/deactivation')?.body).toEqual({ code: '333333' });
    });

    it('asks for a code with a password change while it is on', async () => {
      signInAs();
      const { calls } = mockFetch(({ url }) =>
        url === '/api/password' ? jsonResponse(204) : jsonResponse(200, makeUser({ twoFactorEnabled: true })),
      );
      const user = userEvent.setup();
      renderApp('/my-profile');
      await user.type(await screen.findByTestId('profile-oldPassword'), 'Secret#123');
      await user.type(screen.getByTestId('profile-password'), 'Secret#456');
      await user.type(screen.getByTestId('profile-confirmPassword'), 'Secret#456');
      await user.click(screen.getByTestId('profile-password-submit'));
      expect(calls.some((call) => call.url === '/api/password')).toBe(false);
      await user.type(screen.getByTestId('profile-otp'), '444444');
      await user.click(screen.getByTestId('profile-password-submit'));
      await waitFor(() =>
        expect(calls.find((call) => call.url === '/api/password')?.body).toEqual({
          oldPassword: 'Secret#123',
          password: 'Secret#456',
          confirmPassword: 'Secret#456',
          otpCode: '444444',
        }),
      );
    });
  });
});
