import { describe, expect, it } from 'vitest';
import { API_ROUTES } from './api-routes';
import { createSessionClient, type SessionClientOptions } from './session-client';

interface Call {
  method: string;
  url: string;
  authorization: string | null;
  app: string | null;
  credentials: RequestCredentials | undefined;
  headers: Headers;
}

type Answer = (call: Call) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const expired = () => json(401, { status: 401, error: 'error.session.expired', message: 'expired' });

/**
 * A session client over a scripted fetch (the outside world of this unit) and an in-memory token store, recording
 * every request and every sign-out.
 */
function harness(answer: Answer, accessToken: string | null = 'old') {
  const calls: Call[] = [];
  const state = { accessToken, signOuts: 0, reasons: [] as (string | undefined)[] };
  const fetch = (async (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const call: Call = {
      method: init.method ?? 'GET',
      url: input,
      authorization: headers.get('Authorization'),
      app: headers.get('X-Kupa-App'),
      credentials: init.credentials,
      headers,
    };
    calls.push(call);
    return answer(call);
  }) as typeof globalThis.fetch;
  const options: SessionClientOptions = {
    app: 'client',
    accessToken: () => state.accessToken,
    storeAccessToken: (token) => {
      state.accessToken = token;
    },
    onSignedOut: (reason) => {
      state.signOuts += 1;
      state.reasons.push(reason);
      state.accessToken = null;
    },
    fetch,
  };
  return { client: createSessionClient(options), calls, state };
}

/** A promise and the function that resolves it, to hold a fake answer back until the test lets it go. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createSessionClient', () => {
  it('sends cookies, the app header and the bearer token under the API base path', async () => {
    const { client, calls } = harness(() => json(200, { ok: true }));
    const { response, refreshAttempted, signedOut } = await client.request(API_ROUTES.me);
    expect(await response.json()).toEqual({ ok: true });
    expect({ refreshAttempted, signedOut }).toEqual({ refreshAttempted: false, signedOut: false });
    expect(calls[0]).toMatchObject({
      method: 'GET',
      url: '/api/users/me',
      authorization: 'Bearer old',
      app: 'client',
      credentials: 'include',
    });
    expect(calls[0].headers.get('Accept')).toBe('application/json');
  });

  it('sends JSON bodies as JSON, keeps caller headers and never lets a caller rename the app', async () => {
    const { client, calls } = harness(() => json(201, {}));
    await client.request(API_ROUTES.transfer, {
      method: 'POST',
      body: JSON.stringify({ amount: 1 }),
      headers: { 'Idempotency-Key': 'key-1', 'X-Kupa-App': 'admin', Accept: 'text/csv' },
    });
    expect(calls[0].headers.get('Content-Type')).toBe('application/json');
    expect(calls[0].headers.get('Idempotency-Key')).toBe('key-1');
    expect(calls[0].headers.get('Accept')).toBe('text/csv');
    expect(calls[0].app).toBe('client');
  });

  it('sends no token to the calls that work without a session', async () => {
    const { client, calls } = harness(() => json(200, { accessToken: 'x', status: 'ACTIVE' }));
    await client.request(API_ROUTES.signIn, { method: 'POST', body: '{}' });
    await client.request(`${API_ROUTES.confirmEmail}?token=abc`);
    expect(calls.map((call) => call.authorization)).toEqual([null, null]);
  });

  it('on a 401 refreshes once and retries with the new token, repeating the caller headers', async () => {
    const { client, calls, state } = harness(({ url, authorization }) => {
      if (url === '/api/auth/token/refresh') return json(200, { accessToken: 'new' });
      return authorization === 'Bearer new' ? json(201, { paymentId: 1 }) : expired();
    });
    const { response, refreshAttempted } = await client.request(API_ROUTES.transfer, {
      method: 'POST',
      body: '{}',
      headers: { 'Idempotency-Key': 'key-1' },
    });
    expect(response.status).toBe(201);
    expect(refreshAttempted).toBe(true);
    expect(calls.map((call) => `${call.method} ${call.url} ${call.authorization ?? '-'} ${call.app}`)).toEqual([
      'POST /api/payments/transfer Bearer old client',
      'POST /api/auth/token/refresh - client',
      'POST /api/payments/transfer Bearer new client',
    ]);
    expect(calls[1].credentials).toBe('include');
    expect(
      calls.filter((call) => call.url.endsWith('/transfer')).map((call) => call.headers.get('Idempotency-Key')),
    ).toEqual(['key-1', 'key-1']);
    expect(state).toEqual({ accessToken: 'new', signOuts: 0, reasons: [] });
  });

  it('shares exactly one refresh among concurrent 401s', async () => {
    const refreshHeld = gate();
    const { client, calls, state } = harness(async ({ url, authorization }) => {
      if (url === '/api/auth/token/refresh') {
        await refreshHeld.opened;
        return json(200, { accessToken: 'new' });
      }
      return authorization === 'Bearer new' ? json(200, { url }) : expired();
    });

    const pending = Promise.all(['/users/a', '/users/b', '/users/c', '/users/d'].map((path) => client.request(path)));
    // Every first attempt has failed before the single refresh answers.
    while (calls.filter((call) => call.authorization === 'Bearer old').length < 4) await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 5));
    refreshHeld.open();
    const results = await Promise.all((await pending).map(({ response }) => response.json()));

    expect(results).toEqual([
      { url: '/api/users/a' },
      { url: '/api/users/b' },
      { url: '/api/users/c' },
      { url: '/api/users/d' },
    ]);
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
    expect(calls.filter((call) => call.authorization === 'Bearer new')).toHaveLength(4);
    expect(state.signOuts).toBe(0);
  });

  it('reuses a token another call refreshed while this one was in flight, without a second refresh', async () => {
    const firstAnswerHeld = gate();
    const { client, calls } = harness(async ({ url, authorization }) => {
      if (url === '/api/auth/token/refresh') return json(200, { accessToken: 'new' });
      if (url === '/api/users/slow' && authorization === 'Bearer old') {
        await firstAnswerHeld.opened;
        return expired();
      }
      return authorization === 'Bearer new' ? json(200, {}) : expired();
    });
    const slow = client.request('/users/slow');
    await client.request('/users/fast');
    firstAnswerHeld.open();
    expect((await slow).response.status).toBe(200);
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
  });

  it('when the shared refresh fails, signs out once and retries none of the calls', async () => {
    const { client, calls, state } = harness(({ url }) =>
      url === '/api/auth/token/refresh' ? json(401, { error: 'error.token.invalid' }) : expired(),
    );
    const outcomes = await Promise.all([client.request('/users/a'), client.request('/users/b')]);
    expect(
      outcomes.map(({ response, refreshAttempted, signedOut }) => [response.status, refreshAttempted, signedOut]),
    ).toEqual([
      [401, true, true],
      [401, true, true],
    ]);
    expect(calls.map((call) => call.url)).toEqual(['/api/users/a', '/api/users/b', '/api/auth/token/refresh']);
    expect(state).toMatchObject({ accessToken: null, signOuts: 1 });
  });

  it("passes the refused refresh's catalogue code to the sign-out, so a block mid-session can be named", async () => {
    const { client, state } = harness(({ url }) =>
      url === '/api/auth/token/refresh'
        ? json(403, { status: 403, error: 'error.account.blocked', message: 'blocked' })
        : expired(),
    );
    expect((await client.request(API_ROUTES.me)).signedOut).toBe(true);
    expect(state).toEqual({ accessToken: null, signOuts: 1, reasons: ['error.account.blocked'] });
  });

  it('keeps the session when the refresh reaches no server, and rejects the call with the network failure', async () => {
    const unreachable = harness(({ url }) => {
      if (url === '/api/auth/token/refresh') throw new TypeError('Failed to fetch');
      return expired();
    });
    await expect(unreachable.client.request(API_ROUTES.me)).rejects.toThrow('Failed to fetch');
    expect(unreachable.state.signOuts).toBe(0);
    expect(unreachable.state.accessToken).not.toBeNull();
  });

  it('treats an answer without a token as a failed refresh', async () => {
    const empty = harness(({ url }) => (url === '/api/auth/token/refresh' ? json(200, {}) : expired()));
    expect((await empty.client.request(API_ROUTES.me)).signedOut).toBe(true);
    expect(empty.state).toEqual({ accessToken: null, signOuts: 1, reasons: [undefined] });
  });

  it('does not loop: a second 401 right after a refresh ends the session once', async () => {
    const { client, calls, state } = harness(({ url }) =>
      url === '/api/auth/token/refresh' ? json(200, { accessToken: 'new' }) : expired(),
    );
    const outcomes = await Promise.all([client.request('/users/a'), client.request('/users/b')]);
    expect(outcomes.map(({ response, signedOut }) => [response.status, signedOut])).toEqual([
      [401, true],
      [401, true],
    ]);
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
    expect(calls).toHaveLength(5);
    expect(state).toMatchObject({ accessToken: null, signOuts: 1 });
  });

  it('signs a late call out without another refresh once the session has ended', async () => {
    const lateAnswerHeld = gate();
    const { client, calls, state } = harness(async ({ url }) => {
      if (url === '/api/auth/token/refresh') return json(401, { error: 'error.token.invalid' });
      if (url === '/api/users/late') await lateAnswerHeld.opened;
      return expired();
    });
    const late = client.request('/users/late');
    await client.request('/users/early');
    lateAnswerHeld.open();
    expect(await late).toMatchObject({ refreshAttempted: true, signedOut: true });
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
    expect(state.signOuts).toBe(1);
  });

  it('never refreshes for the session calls, calls sent without a token, or calls that opt out', async () => {
    const { client, calls, state } = harness(() => expired());
    await client.request(API_ROUTES.signIn, { method: 'POST', body: '{}' });
    await client.request(API_ROUTES.signOut, { method: 'POST' });
    await client.request(API_ROUTES.changePassword, { method: 'PUT', body: '{}', skipRefresh: true });
    state.accessToken = null;
    await client.request(API_ROUTES.me);
    expect(calls.map((call) => call.url)).toEqual([
      '/api/auth/signin',
      '/api/auth/logout',
      '/api/password',
      '/api/users/me',
    ]);
    expect(state.signOuts).toBe(0);
  });

  it('refresh() on its own stores the new token, and is shared while it runs', async () => {
    const { client, calls, state } = harness(() => json(200, { accessToken: 'new' }));
    const [first, second] = await Promise.all([client.refresh(), client.refresh()]);
    expect([first, second]).toEqual(['new', 'new']);
    expect(calls).toHaveLength(1);
    expect(state.accessToken).toBe('new');
    await client.refresh();
    expect(calls).toHaveLength(2);
  });
});
