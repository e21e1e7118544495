import { API_BASE_PATH, API_ROUTES } from './api-routes';
import type { RefreshResponse } from './payloads';
import { SESSION_APP_HEADER, type SessionApp } from './session';

/**
 * The calls that must never carry the access token: they work without a session by design, and signing in with a
 * stale token of an earlier session would only confuse the logs.
 */
const ANONYMOUS_ROUTES: readonly string[] = [
  API_ROUTES.signIn,
  API_ROUTES.refreshSession,
  API_ROUTES.confirmEmail,
  // The link's token names the client, whoever is signed in on this browser.
  API_ROUTES.unsubscribeAnnouncements,
];

/** The calls that are the session machinery itself: a 401 from them is an answer, never a reason to refresh. */
const NO_REFRESH_ROUTES: readonly string[] = [API_ROUTES.signIn, API_ROUTES.refreshSession, API_ROUTES.signOut];

function isRoute(path: string, routes: readonly string[]): boolean {
  return routes.some((route) => path === route || path.startsWith(`${route}?`) || path.startsWith(`${route}/`));
}

export interface SessionClientOptions {
  /** Sent as `X-Kupa-App` on every call, so the API keeps this UI's refresh cookie apart from the other's. */
  app: SessionApp;
  /** Where the API is mounted; `API_BASE_PATH` unless told otherwise. */
  baseUrl?: string;
  /** The current access token, or null when signed out. */
  accessToken(): string | null;
  /** Keeps the token a refresh answered with. */
  storeAccessToken(accessToken: string): void;
  /**
   * Called once when the session is found to be gone (the refresh failed, or the call was refused again right after
   * a refresh). It must forget the stored access token: that is how later calls know the session has ended. `reason`
   * is the catalogue code the refusal carried, when it carried one (`error.account.blocked` for an account blocked
   * while its access token had expired), so that the UI can say why rather than only ask for a sign-in.
   */
  onSignedOut(reason?: string): void;
  /** The fetch to use; the global one, looked up on every call, unless told otherwise. */
  fetch?: typeof fetch;
}

export interface SessionRequestInit extends Omit<RequestInit, 'credentials'> {
  /** Set on calls where a 401 is an answer rather than an expired session, such as a password check. */
  skipRefresh?: boolean;
}

export interface SessionResponse {
  /** The API's answer, unread, so that a caller may stream its body (the CSV export). */
  response: Response;
  /** Whether the one refresh a call may cause was spent on this call. */
  refreshAttempted: boolean;
  /** Whether this call found the session gone; `onSignedOut` has run by then. */
  signedOut: boolean;
}

export interface SessionClient {
  readonly app: SessionApp;
  /** The full URL of an API path (`API_ROUTES.me` → `/api/users/me`). */
  url(path: string): string;
  /**
   * Sends one call with cookies, the app header and the access token. A 401 on a call that carried a token causes
   * one refresh (shared by every call that fails meanwhile) and one retry with the new token; when the refresh is
   * refused, or the retry is refused again, the session is over and `onSignedOut` runs once. A network failure, of
   * the call or of its refresh, rejects with fetch's error and leaves the session as it was.
   */
  request(path: string, init?: SessionRequestInit): Promise<SessionResponse>;
  /**
   * Asks for a new access token with the httpOnly refresh cookie, or joins the refresh already running. Answers the
   * new token, or null after signing out; rejects, signed in still, when the API cannot be reached.
   */
  refresh(): Promise<string | null>;
}

/**
 * The session HTTP client both UIs share (framework-free: the console wraps it as react-admin's fetchJson and auth
 * provider, the client app as its API client). Concurrent callers share one refresh because the refresh token
 * rotates on every use: a second parallel refresh would present an already rotated token and, by design, revoke the
 * whole session (docs/adr/0009-refresh-sessions-per-app.md).
 */
export function createSessionClient(options: SessionClientOptions): SessionClient {
  const baseUrl = options.baseUrl ?? API_BASE_PATH;
  const doFetch = (url: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(url, init);
  let refreshInFlight: Promise<string | null> | null = null;

  const url = (path: string) => `${baseUrl}${path}`;

  function headersFor(init: SessionRequestInit, accessToken: string | null): Headers {
    const headers = new Headers(init.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    if (typeof init.body === 'string' && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
    headers.set(SESSION_APP_HEADER, options.app);
    return headers;
  }

  function send(path: string, init: SessionRequestInit, accessToken: string | null): Promise<Response> {
    const { skipRefresh: _skipRefresh, ...requestInit } = init;
    return doFetch(url(path), { ...requestInit, credentials: 'include', headers: headersFor(init, accessToken) });
  }

  /** The catalogue code of a refused refresh, if its body names one. */
  async function refusalOf(response: Response): Promise<string | undefined> {
    try {
      const body = (await response.json()) as { error?: unknown } | null;
      return typeof body?.error === 'string' && body.error !== '' ? body.error : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A refresh that reaches no server rejects with fetch's error and signs nobody out: the session may be perfectly
   * alive, and a dropped connection must read as one (the caller says so and offers a retry), not as a sign-out.
   */
  async function requestRefresh(): Promise<{ accessToken: string | null; refusal?: string }> {
    const response = await send(API_ROUTES.refreshSession, { method: 'POST' }, null);
    if (!response.ok) return { accessToken: null, refusal: await refusalOf(response) };
    let body: Partial<RefreshResponse> | null = null;
    try {
      body = (await response.json()) as Partial<RefreshResponse> | null;
    } catch {
      body = null;
    }
    const accessToken = typeof body?.accessToken === 'string' && body.accessToken !== '' ? body.accessToken : null;
    return { accessToken };
  }

  function refresh(): Promise<string | null> {
    refreshInFlight ??= requestRefresh()
      .then(({ accessToken, refusal }) => {
        if (accessToken === null) options.onSignedOut(refusal);
        else options.storeAccessToken(accessToken);
        return accessToken;
      })
      .finally(() => {
        refreshInFlight = null;
      });
    return refreshInFlight;
  }

  async function request(path: string, init: SessionRequestInit = {}): Promise<SessionResponse> {
    const sentToken = isRoute(path, ANONYMOUS_ROUTES) ? null : options.accessToken();
    const response = await send(path, init, sentToken);
    const refreshable = sentToken !== null && !init.skipRefresh && !isRoute(path, NO_REFRESH_ROUTES);
    if (response.status !== 401 || !refreshable) return { response, refreshAttempted: false, signedOut: false };

    // Another call may have refreshed while this one was in flight: its token is reused. If another call found the
    // session gone meanwhile, the token is already forgotten and this call is signed out with it.
    const latest = options.accessToken();
    if (latest === null) return { response, refreshAttempted: true, signedOut: true };
    const fresh = latest !== sentToken ? latest : await refresh();
    if (fresh === null) return { response, refreshAttempted: true, signedOut: true };

    const retry = await send(path, init, fresh);
    if (retry.status !== 401) return { response: retry, refreshAttempted: true, signedOut: false };
    // Refused again right after a refresh: the session is gone for good. Concurrent retries that fail alike sign out
    // once, because the first one's onSignedOut forgets the token they all used.
    if (options.accessToken() === fresh) options.onSignedOut();
    return { response: retry, refreshAttempted: true, signedOut: true };
  }

  return { app: options.app, url, request, refresh };
}
