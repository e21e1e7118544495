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

  it('switches announcements off and on, saying that service mails still come', async () => {
    signInAs();
    let announcements = true;
    const { calls } = mockFetch(({ url, method, body }) => {
      if (url === '/api/notifications/preferences') {
        if (method === 'PUT') announcements = (body as { announcements: boolean }).announcements;
        return jsonResponse(200, { announcements });
      }
      return jsonResponse(200, makeUser());
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    const toggle = await screen.findByRole('switch', { name: translate('he', 'profile.announcementsSwitch') });
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAccessibleDescription(translate('he', 'profile.announcementsHint'));

    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(calls.filter((call) => call.method === 'PUT').at(-1)).toMatchObject({
      url: '/api/notifications/preferences',
      body: { announcements: false },
    });

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(calls.filter((call) => call.method === 'PUT').at(-1)).toMatchObject({ body: { announcements: true } });
  });
});
