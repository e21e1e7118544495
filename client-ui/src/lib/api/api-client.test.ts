import { registerNavigate } from '../navigation';
import { useUserStore } from '../stores/user-store';
import { CLIENT_SESSION, errorResponse, jsonResponse, mockFetch, signInAs } from '../../test/render-app';
import { apiRequest } from './api-client';
import { authApi } from './endpoints';
import { ApiError } from './api-error';

describe('API client', () => {
  it('sends JSON with cookies and the bearer token under /api', async () => {
    signInAs({ accessToken: 'token-a' });
    const { calls, fetchMock } = mockFetch(() => jsonResponse(200, { ok: true }));
    await expect(apiRequest('/users/me')).resolves.toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ url: '/api/users/me', method: 'GET' });
    expect(calls[0].headers.authorization).toBe('Bearer token-a');
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ credentials: 'include' });
  });

  it('names the client app on sign-in, refresh and logout, so its session cookie is its own', async () => {
    const { calls } = mockFetch(({ url, headers }) => {
      if (url === '/api/auth/signin') return jsonResponse(200, { ...CLIENT_SESSION, accessToken: 'expired' });
      if (url === '/api/auth/token/refresh') return jsonResponse(200, { accessToken: 'fresh' });
      if (url === '/api/auth/logout') return new Response(null, { status: 204 });
      return headers.authorization === 'Bearer fresh'
        ? jsonResponse(200, { ok: true })
        : errorResponse(401, 'error.session.expired');
    });

    signInAs(await authApi.signIn({ email: CLIENT_SESSION.email, password: 'Secret-1!' }));
    await apiRequest('/users/me');
    await authApi.logout();

    expect(calls.map((call) => `${call.method} ${call.url} ${call.headers['x-kupa-app']}`)).toEqual([
      'POST /api/auth/signin client',
      'GET /api/users/me client',
      'POST /api/auth/token/refresh client',
      'GET /api/users/me client',
      'POST /api/auth/logout client',
    ]);
    // Logout sends no body: the API refuses one on routes that take none.
    expect(calls.at(-1)?.body).toBeUndefined();
  });

  it('never sends the token to the confirmation-token call', async () => {
    signInAs({ accessToken: 'token-a' });
    const { calls } = mockFetch(() => jsonResponse(200, { status: 'ACTIVE' }));
    await apiRequest('/confirmation-token', { query: { token: 'abc' } });
    expect(calls[0].url).toBe('/api/confirmation-token?token=abc');
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('on 401 refreshes the token once and retries the original call with the new token', async () => {
    signInAs({ accessToken: 'expired' });
    const { calls } = mockFetch(({ url, headers }) => {
      if (url === '/api/auth/token/refresh') return jsonResponse(200, { accessToken: 'fresh' });
      return headers.authorization === 'Bearer fresh'
        ? jsonResponse(200, { balance: 5 })
        : errorResponse(401, 'error.session.expired');
    });

    await expect(apiRequest('/users/me')).resolves.toEqual({ balance: 5 });

    expect(calls.map((call) => call.url)).toEqual(['/api/users/me', '/api/auth/token/refresh', '/api/users/me']);
    expect(calls[1].method).toBe('POST');
    expect(calls[1].headers.authorization).toBeUndefined();
    expect(useUserStore.getState().accessToken).toBe('fresh');
  });

  it('repeats extra headers such as the idempotency key on the retry after a refresh', async () => {
    signInAs({ accessToken: 'expired' });
    const { calls } = mockFetch(({ url, headers }) => {
      if (url === '/api/auth/token/refresh') return jsonResponse(200, { accessToken: 'fresh' });
      return headers.authorization === 'Bearer fresh'
        ? jsonResponse(201, { paymentId: 1 })
        : errorResponse(401, 'error.session.expired');
    });
    await apiRequest('/payments/transfer', {
      method: 'POST',
      body: { recipient: '87654321', amount: 1 },
      headers: { 'Idempotency-Key': 'key-1' },
    });
    const transfers = calls.filter((call) => call.url === '/api/payments/transfer');
    expect(transfers.map((call) => call.headers['idempotency-key'])).toEqual(['key-1', 'key-1']);
    expect(transfers[1].headers.authorization).toBe('Bearer fresh');
  });

  it('shares one refresh among concurrent 401s', async () => {
    signInAs({ accessToken: 'expired' });
    const { calls } = mockFetch(async ({ url, headers }) => {
      if (url === '/api/auth/token/refresh') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return jsonResponse(200, { accessToken: 'fresh' });
      }
      return headers.authorization === 'Bearer fresh'
        ? jsonResponse(200, { url })
        : errorResponse(401, 'error.session.expired');
    });

    const results = await Promise.all([
      apiRequest('/users/me'),
      apiRequest('/payments/1'),
      apiRequest('/subscriptions/2'),
    ]);

    expect(results).toEqual([{ url: '/api/users/me' }, { url: '/api/payments/1' }, { url: '/api/subscriptions/2' }]);
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
  });

  it('when the refresh fails, clears the user and goes to /login without retrying', async () => {
    signInAs({ accessToken: 'expired' });
    const navigate = vi.fn();
    registerNavigate(navigate);
    const { calls } = mockFetch(({ url }) =>
      url === '/api/auth/token/refresh'
        ? errorResponse(401, 'error.session.expired')
        : errorResponse(401, 'error.session.expired'),
    );

    const failure = await apiRequest('/users/me').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).handled).toBe(true);
    expect(calls.map((call) => call.url)).toEqual(['/api/users/me', '/api/auth/token/refresh']);
    expect(useUserStore.getState()).toMatchObject({ accessToken: null, userUuid: null, userRole: null, email: null });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}').state.accessToken).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('does not refresh when a call without a session answers 401 (wrong password)', async () => {
    const { calls } = mockFetch(() => errorResponse(401, 'error.auth.bad.credentials', 'Incorrect email or password'));
    const failure = await apiRequest('/auth/signin', {
      method: 'POST',
      body: { email: 'a@b.co', password: 'x' },
    }).catch((error: unknown) => error);
    expect((failure as ApiError).code).toBe('error.auth.bad.credentials');
    expect(calls).toHaveLength(1);
  });

  it('sends a blocked account to the blocked notice and ends the session', async () => {
    signInAs();
    const navigate = vi.fn();
    registerNavigate(navigate);
    mockFetch(() => errorResponse(403, 'error.account.blocked', 'Your account is blocked'));
    const failure = await apiRequest('/users/me').catch((error: unknown) => error);
    expect((failure as ApiError).status).toBe(403);
    expect(navigate).toHaveBeenCalledWith('/blocked');
    expect(useUserStore.getState().accessToken).toBeNull();
  });

  it('sends a client blocked while the access token had expired to the blocked notice, not the login screen', async () => {
    signInAs({ accessToken: 'expired' });
    const navigate = vi.fn();
    registerNavigate(navigate);
    mockFetch(({ url }) =>
      url === '/api/auth/token/refresh'
        ? errorResponse(403, 'error.account.blocked', 'Your account is blocked')
        : errorResponse(401, 'error.session.expired'),
    );
    const failure = await apiRequest('/payments/search', { method: 'POST', body: {} }).catch((error: unknown) => error);
    expect((failure as ApiError).handled).toBe(true);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/blocked');
    expect(useUserStore.getState().accessToken).toBeNull();
  });

  it('reads an error body that is not JSON without throwing a parse error', async () => {
    mockFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const failure = await apiRequest('/common/app/version').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body).toMatchObject({ status: 502, error: '', message: '' });
  });
});
