import { formatErrorMessage } from '@kupa/proto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeLanguage } from '../i18n/language';
import { json, mockFetch } from '../test/fetch-mock';
import { authProvider } from './auth-provider';
import { ApiError } from './http-client';
import { SESSION_STORAGE_KEY, session } from './session';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('authProvider.login', () => {
  it('refuses a client with the client-app message and closes the session it just opened', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 'client-token', userUuid: 'c-1', email: 'client@example.com', userRole: 'CLIENT' }),
      'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    });

    await expect(authProvider.login({ email: 'client@example.com', password: 'Secret1!x' })).rejects.toThrow(
      formatErrorMessage('error.use.client.app', 'he'),
    );

    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/auth/signin',
      'POST /api/auth/logout',
    ]);
    expect(calls[0].body).toEqual({ email: 'client@example.com', password: 'Secret1!x' });
    expect(calls[0].headers.has('Authorization')).toBe(false);
    expect(calls[1].credentials).toBe('include');
    // Both calls name the console: the logout ends this console's session only, never a client's at `/`.
    expect(calls.map((call) => call.headers.get('X-Kupa-App'))).toEqual(['admin', 'admin']);
    expect(session.get()).toBeNull();
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await expect(authProvider.checkAuth({})).rejects.toBeDefined();
  });

  it('refuses an ambassador in English when English is chosen', async () => {
    writeLanguage('en');
    mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 't', userUuid: 'a-1', email: 'amb@example.com', userRole: 'AMBASSADOR' }),
      'POST /api/auth/logout': () => new Response(null, { status: 204 }),
    });
    await expect(authProvider.login({ email: 'amb@example.com', password: 'x' })).rejects.toThrow(
      'This console is for staff. Clients sign in to the client app',
    );
  });

  it('signs staff in, keeps the token in memory and storage, and reports the role as permissions', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(200, { accessToken: 'staff-token', userUuid: 's-1', email: 'manager@example.com', userRole: 'MANAGER' }),
      'GET /api/users/me': () => json(200, { userUuid: 's-1', fullName: 'Mira Manager', email: 'manager@example.com' }),
    });

    await authProvider.login({ email: 'manager@example.com', password: 'Secret1!x' });

    // The sign-in names the console, so its refresh cookie is the console's own.
    expect(calls[0].headers.get('X-Kupa-App')).toBe('admin');
    expect(session.accessToken()).toBe('staff-token');
    expect(JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}').accessToken).toBe('staff-token');
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    await expect(authProvider.getPermissions!({})).resolves.toBe('MANAGER');
    await expect(authProvider.getIdentity!()).resolves.toEqual({
      id: 's-1',
      fullName: 'Mira Manager',
      email: 'manager@example.com',
    });
  });

  it('shows the catalogue message for wrong credentials without trying a refresh', async () => {
    const { calls } = mockFetch({
      'POST /api/auth/signin': () =>
        json(401, { status: 401, error: 'error.auth.bad.credentials', message: 'Incorrect email or password' }),
    });
    await expect(authProvider.login({ email: 'a@example.com', password: 'bad' })).rejects.toThrow(
      'אימייל או סיסמה שגויים',
    );
    expect(calls).toHaveLength(1);
  });
});

describe('authProvider.checkError', () => {
  it('logs out when a call still fails with 401 after its refresh', async () => {
    session.set({ accessToken: 't', userUuid: 's-1', email: 'a@example.com', userRole: 'ADMIN' });
    const { calls } = mockFetch({});
    const error = new ApiError('expired', 401, { error: 'error.session.expired' }, true);
    await expect(authProvider.checkError(error)).rejects.toBe(error);
    expect(session.get()).toBeNull();
    // The one refresh this call was allowed has already been spent by the HTTP client.
    expect(calls).toHaveLength(0);
  });

  it('keeps the user when a one-off refresh succeeds, and ignores errors that are not 401', async () => {
    session.set({ accessToken: 'old', userUuid: 's-1', email: 'a@example.com', userRole: 'ADMIN' });
    const { calls } = mockFetch({ 'POST /api/auth/token/refresh': () => json(200, { accessToken: 'new' }) });

    await expect(authProvider.checkError({ status: 401 })).resolves.toBeUndefined();
    expect(session.accessToken()).toBe('new');
    expect(calls[0].headers.get('X-Kupa-App')).toBe('admin');
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('logs out after logout removes the session locally and on the server', async () => {
    session.set({ accessToken: 't', userUuid: 's-1', email: 'a@example.com', userRole: 'ADMIN' });
    const { calls } = mockFetch({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    await authProvider.logout({});
    expect(session.get()).toBeNull();
    expect(calls[0].headers.get('Authorization')).toBe('Bearer t');
    expect(calls[0].headers.get('X-Kupa-App')).toBe('admin');
    expect(calls[0].credentials).toBe('include');
  });
});
