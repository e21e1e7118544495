import { formatErrorMessage } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../providers/session';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin } from '../test/render-admin';
import { LoginPage } from './login-page';

function renderLogin(onLocation: (path: string) => void = () => undefined) {
  return renderInAdmin(<LoginPage />, { withAuth: true, path: '/admin/login', onLocation });
}

async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByTestId('login-email'), email);
  await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('staff sign-in page', () => {
  it('tells a client to use the client app, closes the session it opened and stays on the form', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 'client-token', userUuid: 'c-1', email: 'dana@example.com', userRole: 'CLIENT' }),
      'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    });
    const locations: string[] = [];
    renderLogin((path) => locations.push(path));

    await signIn(userEvent.setup(), ' dana@example.com ', 'Secret1!x');

    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      formatErrorMessage('error.use.client.app', 'he'),
    );
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['POST', '/api/auth/signin', { email: 'dana@example.com', password: 'Secret1!x' }],
      ['POST', '/api/auth/logout', undefined],
    ]);
    expect(session.get()).toBeNull();
    expect(new Set(locations)).toEqual(new Set(['/admin/login']));
    expect(screen.getByTestId('login-submit')).toBeEnabled();
    expect(screen.getByRole('link', { name: 'לקוחות? לאפליקציית הלקוחות' })).toHaveAttribute('href', '/');
  });

  it('signs staff in and opens the console', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 'staff-token', userUuid: 's-1', email: 'avi@example.com', userRole: 'ADMIN' }),
    });
    const locations: string[] = [];
    renderLogin((path) => locations.push(path));

    await signIn(userEvent.setup(), 'avi@example.com', 'Secret1!x');

    await waitFor(() => expect(locations.at(-1)).toBe('/admin/'));
    expect(session.get()).toMatchObject({ accessToken: 'staff-token', userRole: 'ADMIN' });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /api/auth/signin']);
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
  });

  it('shows and hides the typed password with a labelled control, as the client app does', async () => {
    mockFetch({});
    const user = userEvent.setup();
    renderLogin();
    const password = await screen.findByTestId('login-password');
    await user.type(password, 'Secret1!x');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'הצגת הסיסמה' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveAttribute('dir', 'ltr');
    await user.click(screen.getByRole('button', { name: 'הסתרת הסיסמה' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('checks the e-mail before sending anything and shows the server message for wrong credentials', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(401, { status: 401, error: 'error.auth.bad.credentials', message: 'Incorrect email or password' }),
    });
    const user = userEvent.setup();
    renderLogin();

    await signIn(user, 'not-an-email', 'Secret1!x');
    expect(await screen.findByText(formatErrorMessage('error.validation.invalid.email', 'he'))).toBeVisible();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('login-email'));
    await user.type(screen.getByTestId('login-email'), 'avi@example.com');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      formatErrorMessage('error.auth.bad.credentials', 'he'),
    );
    expect(calls).toHaveLength(1);
    expect(session.get()).toBeNull();
  });

  it('asks a staff member with two-factor sign-in for a code and sends the credentials again with it', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': [
        () => json(401, { status: 401, error: 'error.otp.required', message: 'A one-time code is required' }),
        () => json(400, { status: 400, error: 'error.otp.invalid', message: 'The code is incorrect' }),
        () => json(200, { accessToken: 'staff-token', userUuid: 's-1', email: 'avi@example.com', userRole: 'MANAGER' }),
      ],
    });
    const locations: string[] = [];
    const user = userEvent.setup();
    renderLogin((path) => locations.push(path));

    await signIn(user, 'avi@example.com', 'Secret1!x');
    expect(await screen.findByTestId('login-otp-intro')).toHaveTextContent('כניסה דו-שלבית מופעלת בחשבון הזה.');
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
    expect(screen.queryByTestId('login-password')).not.toBeInTheDocument();
    expect(session.get()).toBeNull();

    await user.type(screen.getByTestId('login-otp'), '111111');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(formatErrorMessage('error.otp.invalid', 'he'));

    await user.clear(screen.getByTestId('login-otp'));
    await user.type(screen.getByTestId('login-otp'), ' 123456 ');
    await user.click(screen.getByTestId('login-submit'));

    await waitFor(() => expect(locations.at(-1)).toBe('/admin/'));
    expect(calls.map((call) => call.body)).toEqual([
      { email: 'avi@example.com', password: 'Secret1!x' },
      { email: 'avi@example.com', password: 'Secret1!x', otp: '111111' },
      { email: 'avi@example.com', password: 'Secret1!x', otp: '123456' },
    ]);
    expect(session.get()).toMatchObject({ accessToken: 'staff-token' });
  });

  it('enrols a staff member the policy requires with the enrolment token, then asks for a code', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(401, {
          status: 401,
          error: 'error.otp.initialization.required',
          message: 'One-time code setup is required',
          details: { enrolmentToken: 'enrol-token', expiresInSeconds: 600 },
        }),
      'POST /api/auth/two-factor/enrolment': () =>
        json(201, {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/Kupa:avi%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Kupa',
          qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
        }),
      'POST /api/auth/two-factor/activation': () =>
        json(200, { recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'tuvw-xyz2-3456-789a'] }),
    });
    const user = userEvent.setup();
    renderInAdmin(<LoginPage />, { withAuth: true, path: '/admin/login', lang: 'en' });

    await signIn(user, 'avi@example.com', 'Secret1!x');
    expect(await screen.findByTestId('login-enrol-intro')).toHaveTextContent('Staff accounts must use two-factor');
    expect(await screen.findByTestId('two-factor-qr')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    await user.type(screen.getByTestId('two-factor-code'), '654321');
    await user.click(screen.getByTestId('two-factor-confirm'));
    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('abcd-efgh-jkmn-pqrs');
    expect(screen.getByTestId('recovery-codes-warning')).toHaveTextContent('shown only this once');
    await user.click(screen.getByTestId('recovery-codes-done'));

    expect(await screen.findByTestId('login-notice')).toHaveTextContent('Two-factor sign-in is on.');
    expect(screen.getByTestId('login-otp')).toBeVisible();
    const enrolmentCalls = calls.filter((call) => call.url.startsWith('/api/auth/two-factor/'));
    expect(enrolmentCalls.map((call) => [call.url, call.headers.get('Authorization'), call.body])).toEqual([
      ['/api/auth/two-factor/enrolment', 'Bearer enrol-token', undefined],
      ['/api/auth/two-factor/activation', 'Bearer enrol-token', { code: '654321' }],
    ]);
    expect(session.get()).toBeNull();
  });
});
