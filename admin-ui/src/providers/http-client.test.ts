import { API_ROUTES } from '@kupa/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { ApiError, httpClient } from './http-client';
import { session } from './session';

const expired = () => json(401, { status: 401, error: 'error.session.expired', message: 'expired' });

beforeEach(() => {
  session.set({ accessToken: 'old', userUuid: 's-1', email: 'a@example.com', userRole: 'ADMIN' });
});

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('httpClient on 401', () => {
  it('refreshes once and retries the call with the new token', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': [expired, () => json(200, { userUuid: 's-1' })],
      'POST /api/auth/token/refresh': () => json(200, { accessToken: 'new' }),
    });

    const response = await httpClient(API_ROUTES.me);

    expect(response.json).toEqual({ userUuid: 's-1' });
    expect(calls.map((call) => `${call.method} ${call.url} ${call.headers.get('Authorization') ?? '-'}`)).toEqual([
      'GET /api/users/me Bearer old',
      'POST /api/auth/token/refresh -',
      'GET /api/users/me Bearer new',
    ]);
    expect(calls[1].credentials).toBe('include');
    expect(session.accessToken()).toBe('new');
  });

  it('shares one refresh between concurrent 401s', async () => {
    let releaseRefresh: () => void = () => undefined;
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const { calls } = mockFetch({
      'GET /api/users/a': [expired, () => json(200, 'a')],
      'GET /api/users/b': [expired, () => json(200, 'b')],
      'GET /api/users/c': [expired, () => json(200, 'c')],
      'POST /api/auth/token/refresh': async () => {
        await refreshGate;
        return json(200, { accessToken: 'new' });
      },
    });

    const pending = Promise.all(['a', 'b', 'c'].map((id) => httpClient(API_ROUTES.user(id))));
    // Let all three first attempts fail before the single refresh answers.
    await vi.waitFor(() => expect(calls.filter((call) => call.url.includes('refresh'))).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    releaseRefresh();
    const responses = await pending;

    expect(responses.map((response) => response.json)).toEqual(['a', 'b', 'c']);
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
    expect(calls.filter((call) => call.headers.get('Authorization') === 'Bearer new')).toHaveLength(3);
  });

  it('retries only once: a second 401 is reported with the refresh already spent', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': expired,
      'POST /api/auth/token/refresh': () => json(200, { accessToken: 'new' }),
    });

    const failure = await httpClient(API_ROUTES.me).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect((failure as ApiError).refreshAttempted).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('does not retry when the refresh fails, and forgets the session it lost', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': expired,
      'POST /api/auth/token/refresh': () => json(401, { status: 401, error: 'error.token.invalid', message: 'bad' }),
    });

    const failure = (await httpClient(API_ROUTES.me).catch((error: unknown) => error)) as ApiError;

    expect(failure.status).toBe(401);
    expect(failure.message).toBe('פג תוקף ההתחברות או שלא נמצאה. התחברו מחדש');
    expect(calls.map((call) => call.url)).toEqual(['/api/users/me', '/api/auth/token/refresh']);
    expect(failure.refreshAttempted).toBe(true);
    // react-admin's checkError then finds no session and shows the login page.
    expect(session.get()).toBeNull();
  });

  it('names the console on every call, the refresh included, so its session cookie is its own', async () => {
    const { calls } = mockFetch({
      'GET /api/users/me': [expired, () => json(200, { userUuid: 's-1' })],
      'POST /api/auth/token/refresh': () => json(200, { accessToken: 'new' }),
      'DELETE /api/users/u-1/notes/n-1': () => new Response(null, { status: 204 }),
    });

    await httpClient(API_ROUTES.me);
    await httpClient(API_ROUTES.userNote('u-1', 'n-1'), { method: 'DELETE', headers: { 'X-Kupa-App': 'client' } });

    expect(calls.map((call) => `${call.method} ${call.url} ${call.headers.get('X-Kupa-App')}`)).toEqual([
      'GET /api/users/me admin',
      'POST /api/auth/token/refresh admin',
      'GET /api/users/me admin',
      'DELETE /api/users/u-1/notes/n-1 admin',
    ]);
  });

  it('falls back to the raw server message for codes outside the catalogue', async () => {
    mockFetch({
      'GET /api/users/me': () => json(500, { status: 500, error: 'boom', message: 'Database unavailable' }),
    });
    await expect(httpClient(API_ROUTES.me)).rejects.toThrow('Database unavailable');
  });
});
