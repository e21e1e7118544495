import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../../../lib/i18n/i18n';
import { jsonResponse, mockFetch, renderApp } from '../../../test/render-app';

describe('reset password', () => {
  it('validates the address, then always answers that a link was sent if it exists', async () => {
    const { calls } = mockFetch(() => jsonResponse(204));
    const user = userEvent.setup();
    renderApp('/reset-password');
    await user.type(await screen.findByTestId('reset-email'), 'nobody');
    await user.click(screen.getByTestId('reset-submit'));
    expect(screen.getByText(formatErrorMessage('error.validation.invalid.email', 'he'))).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('reset-email'));
    await user.type(screen.getByTestId('reset-email'), 'nobody@example.com');
    await user.click(screen.getByTestId('reset-submit'));
    expect(await screen.findByTestId('reset-sent')).toHaveTextContent(translate('he', 'reset.sent'));
    expect(calls[0]).toMatchObject({
      url: '/api/password/forgot',
      method: 'POST',
      body: { email: 'nobody@example.com', language: 'he' },
    });
  });
});
