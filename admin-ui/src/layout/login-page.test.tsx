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
});
