import { type RefreshResponse, SESSION_APP_HEADER, type SessionApp } from '@kupa/proto';
import { navigateTo } from '../navigation';
import { useUserStore } from '../stores/user-store';
import { ApiError, readErrorBody } from './api-error';

export const API_BASE = '/api';

/**
 * The client app names itself on every call, so that the API keeps its session in a refresh cookie of its own: staff
 * signing in to the console in the same browser do not replace it (docs/adr/0009-refresh-sessions-per-app.md).
 */
export const SESSION_APP: SessionApp = 'client';

/** Calls that must never carry the access token: they work without a session. */
const UNAUTHENTICATED_PATHS = ['/confirmation-token', '/auth/token/refresh'];
const REFRESH_PATH = '/auth/token/refresh';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Set on calls where a 401 is an answer rather than an expired session, such as signing in. */
  skipRefresh?: boolean;
  signal?: AbortSignal;
  /** Extra request headers, such as the `Idempotency-Key` of a money call; the retry after a refresh repeats them. */
  headers?: Record<string, string>;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function carriesToken(path: string): boolean {
  return !UNAUTHENTICATED_PATHS.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}/`),
  );
}

function send(path: string, options: RequestOptions, accessToken: string | null): Promise<Response> {
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: 'application/json',
    [SESSION_APP_HEADER]: SESSION_APP,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (accessToken && carriesToken(path)) headers.Authorization = `Bearer ${accessToken}`;
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    credentials: 'include',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
}

// Every 401 that arrives while a refresh is running waits for that same refresh instead of starting its own:
// the refresh token rotates, so a second concurrent refresh would present an already-used token.
let refreshInFlight: Promise<string | null> | null = null;

async function refreshOnce(): Promise<string | null> {
  try {
    const response = await send(REFRESH_PATH, { method: 'POST' }, null);
    if (!response.ok) return null;
    const { accessToken } = (await response.json()) as RefreshResponse;
    if (typeof accessToken !== 'string' || accessToken === '') return null;
    useUserStore.getState().setAccessToken(accessToken);
    return accessToken;
  } catch {
    return null;
  }
}

/** Starts a refresh, or joins the one already running; answers with the new access token or null. */
export function refreshAccessToken(): Promise<string | null> {
  refreshInFlight ??= refreshOnce().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function endSession(): void {
  useUserStore.getState().clear();
  navigateTo('/login');
}

async function toResult<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function toError(response: Response): Promise<ApiError> {
  const error = new ApiError(response.status, await readErrorBody(response));
  if (response.status === 403 && error.code === 'error.account.blocked') {
    useUserStore.getState().clear();
    navigateTo('/blocked');
    error.handled = true;
  }
  return error;
}

/**
 * One call to the API: JSON in and out, cookies included, the bearer token attached. A 401 on a call that carried a
 * token triggers exactly one token refresh (shared by concurrent callers) and one retry; when the refresh fails the
 * session is cleared and the user goes to the login screen.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = useUserStore.getState().accessToken;
  const response = await send(path, options, token);
  if (response.ok) return toResult<T>(response);

  const sentToken = token !== null && carriesToken(path);
  if (response.status !== 401 || options.skipRefresh || !sentToken) throw await toError(response);

  const fresh = await refreshAccessToken();
  if (fresh === null) {
    const error = await toError(response);
    error.handled = true;
    endSession();
    throw error;
  }
  const retry = await send(path, options, fresh);
  if (retry.ok) return toResult<T>(retry);
  const retryError = await toError(retry);
  // A second 401 right after a successful refresh means the session is gone for good.
  if (retry.status === 401) {
    retryError.handled = true;
    endSession();
  }
  throw retryError;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
