import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { errorResponse, jsonResponse, mockFetch, renderApp } from '../../../test/render-app';

describe('account confirmation', () => {
  it('confirms with the token from the link and offers the login screen', async () => {
    const { calls } = mockFetch(() => jsonResponse(200, { status: 'ACTIVE' }));
    renderApp('/confirmation-token/tok-123');
    expect(await screen.findByTestId('confirm-success')).toHaveTextContent(translate('he', 'confirm.success'));
    expect(screen.getByRole('link', { name: translate('he', 'common.toLogin') })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/confirmation-token?token=tok-123', method: 'GET' });
  });

  it('says a link opened again is for an account already confirmed, and offers to log in instead of a new link', async () => {
    mockFetch(() => errorResponse(409, 'error.account.already.active'));
    renderApp('/confirmation-token/tok-used');
    expect(await screen.findByTestId('confirm-already')).toHaveTextContent(translate('he', 'confirm.already'));
    expect(screen.getByRole('link', { name: translate('he', 'common.toLogin') })).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('confirm-error')).toBeNull();
    expect(screen.queryByText(translate('he', 'confirm.resend.submit'))).toBeNull();
  });

  it('explains a bad token and resends the link to the given address', async () => {
    const { calls } = mockFetch(({ url }) =>
      url.startsWith('/api/confirmation-token')
        ? errorResponse(400, 'error.confirmation.token.invalid')
        : jsonResponse(204),
    );
    const user = userEvent.setup();
    renderApp('/confirmation-token/expired');
    expect(await screen.findByTestId('confirm-error')).toHaveTextContent(
      formatErrorMessage('error.confirmation.token.invalid', 'he'),
    );
    await user.type(screen.getByTestId('resend-email'), 'late@example.com');
    await user.click(screen.getByTestId('resend-submit'));
    expect(await screen.findByTestId('resend-sent')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({
      url: '/api/users/resend-signup-email',
      method: 'POST',
      body: { email: 'late@example.com', language: 'he' },
    });
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });
});
