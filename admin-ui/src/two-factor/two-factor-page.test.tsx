import { formatErrorMessage } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { TwoFactorPage } from './two-factor-page';

const me = { ...CLIENT, role: 'MANAGER' };

beforeEach(() => signInAs('MANAGER'));

describe('two-factor sign-in screen', () => {
  it('enrols with the QR code, confirms the first code and shows the recovery codes once with a copy button', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': [
        () => json(200, { ...me, twoFactorEnabled: false }),
        () => json(200, { ...me, twoFactorEnabled: true }),
      ],
      'POST /api/auth/two-factor/enrolment': () =>
        json(201, {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/Kupa:x?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
        }),
      'POST /api/auth/two-factor/activation': [
        () => json(400, { status: 400, error: 'error.otp.invalid', message: 'The code is incorrect' }),
        () => json(200, { recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'tuvw-xyz2-3456-789a'] }),
      ],
    });
    // user-event puts a clipboard of its own on the navigator, which the test then reads back.
    const user = userEvent.setup();
    renderInAdmin(<TwoFactorPage />);

    expect(await screen.findByTestId('two-factor-status')).toHaveTextContent('כבויה');
    await user.click(screen.getByTestId('two-factor-start'));
    expect(await screen.findByTestId('two-factor-qr')).toHaveAttribute('alt', 'קוד QR לאפליקציית האימות');
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    await user.type(screen.getByTestId('two-factor-code'), '000000');
    await user.click(screen.getByTestId('two-factor-confirm'));
    expect(await screen.findByTestId('two-factor-error')).toHaveTextContent(
      formatErrorMessage('error.otp.invalid', 'he'),
    );

    await user.clear(screen.getByTestId('two-factor-code'));
    await user.type(screen.getByTestId('two-factor-code'), '123456');
    await user.click(screen.getByTestId('two-factor-confirm'));
    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('tuvw-xyz2-3456-789a');
    // A code is copied by eye as well: it never wraps inside itself, however narrow the screen.
    for (const code of screen.getByTestId('recovery-codes').querySelectorAll('li')) {
      expect(getComputedStyle(code).whiteSpace).toBe('nowrap');
    }
    // The codes on screen mean it is on: the chip says so now, not after "Done".
    expect(screen.getByTestId('two-factor-status')).toHaveTextContent('מופעלת');
    expect(screen.queryByTestId('two-factor-disable-form')).not.toBeInTheDocument();
    expect(screen.getByTestId('recovery-codes-warning')).toHaveTextContent('הם מוצגים פעם אחת בלבד');

    await user.click(screen.getByTestId('recovery-codes-copy'));
    expect(await navigator.clipboard.readText()).toBe('abcd-efgh-jkmn-pqrs\ntuvw-xyz2-3456-789a');
    expect(await screen.findByTestId('recovery-codes-copied')).toBeVisible();

    await user.click(screen.getByTestId('recovery-codes-done'));
    await waitFor(() => expect(screen.getByTestId('two-factor-status')).toHaveTextContent('מופעלת'));
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/auth/two-factor/activation').map((call) => call.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('turns it off only with a code', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': () => json(200, { ...me, twoFactorEnabled: true }),
      'POST /api/auth/two-factor/deactivation': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderInAdmin(<TwoFactorPage />, { lang: 'en' });

    expect(await screen.findByTestId('two-factor-status')).toHaveTextContent('On');
    expect(screen.getByTestId('two-factor-disable')).toBeDisabled();
    await user.type(screen.getByTestId('two-factor-disable-code'), 'abcd-efgh-jkmn-pqrs');
    await user.click(screen.getByTestId('two-factor-disable'));

    await waitFor(() => expect(screen.getByTestId('two-factor-status')).toHaveTextContent('Off'));
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/auth/two-factor/deactivation',
      body: { code: 'abcd-efgh-jkmn-pqrs' },
    });
    expect(screen.getByTestId('two-factor-start')).toBeVisible();
  });
});
