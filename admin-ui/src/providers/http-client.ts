import { messageForApiError, type RefreshResponse, SESSION_APP_HEADER, type SessionApp } from '@kupa/proto';
import { HttpError } from 'react-admin';
import { currentLang } from '../i18n/language';
import { session } from './session';

export const API_BASE = '/api';

/**
 * The console names itself on every call, so that the API keeps its session in a refresh cookie of its own: a client
 * signed in at `/` in the same browser keeps theirs (docs/adr/0009-refresh-sessions-per-app.md).
 */
export const SESSION_APP: SessionApp = 'admin';
export const SESSION_APP_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  [SESSION_APP_HEADER]: SESSION_APP,
});

/** Calls that must never trigger a refresh: they are the session machinery itself. */
const SESSION_PATHS = ['/auth/signin', '/auth/token/refresh', '/auth/logout'];

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export interface FetchOptions extends Omit<RequestInit, 'headers'> {
  headers?: HeadersInit;
}

/**
 * A failed API call. The message is already the catalogue text in the page's language (docs/product.md, Common), so
 * react-admin's notifications show it as is; `body` keeps the server's `{status, error, message}` for screens that
 * branch on the code. `refreshAttempted` tells the auth provider that the one refresh allowed for this call has already
 * run.
 */
export class ApiError extends HttpError {
  constructor(
    message: string,
    status: number,
    body: unknown,
    readonly refreshAttempted: boolean,
  ) {
    super(message, status, body);
    // HttpError pins its own prototype in its constructor; without restoring ours, `instanceof ApiError` and the
    // `code` getter would be lost on every instance.
    Object.setPrototypeOf(this, ApiError.prototype);
    this.name = 'ApiError';
  }

  get code(): string | undefined {
    const body = this.body as { error?: unknown } | null | undefined;
    return typeof body?.error === 'string' ? body.error : undefined;
  }
}

let refreshInFlight: Promise<boolean> | null = null;

/**
 * Asks for a new access token with the httpOnly refresh cookie. Concurrent callers share one request: the refresh
 * token rotates on every use, so a second parallel refresh would present an already rotated token and, by design,
 * revoke the whole session.
 */
export function refreshAccessToken(): Promise<boolean> {
  refreshInFlight ??= requestRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function requestRefresh(): Promise<boolean> {
  try {
    const response = await fetch(`${API_BASE}/auth/token/refresh`, {
      method: 'POST',
      credentials: 'include',
      headers: { ...SESSION_APP_HEADERS, Accept: 'application/json' },
    });
    if (!response.ok) return false;
    const body = (await response.json()) as Partial<RefreshResponse>;
    if (typeof body.accessToken !== 'string') return false;
    session.setAccessToken(body.accessToken);
    return true;
  } catch {
    return false;
  }
}

function isSessionCall(url: string): boolean {
  const path = url.startsWith(API_BASE) ? url.slice(API_BASE.length) : url;
  return SESSION_PATHS.some((sessionPath) => path.startsWith(sessionPath));
}

function buildHeaders(options: FetchOptions, token: string | null, withToken: boolean): Headers {
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (options.body !== undefined && !(options.body instanceof FormData) && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  if (withToken && token) headers.set('Authorization', `Bearer ${token}`);
  headers.set(SESSION_APP_HEADER, SESSION_APP);
  return headers;
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A raw answer of the API plus whether the one refresh allowed for the call has been spent on it. */
export interface SessionResponse {
  response: Response;
  refreshAttempted: boolean;
}

/**
 * Sends one API call with cookies and the access token, and on a 401 runs one refresh followed by one retry of the same
 * call (docs/product.md, Screens). The answer is returned unread, so a caller may stream its body (the CSV export).
 */
export async function fetchWithSession(url: string, options: FetchOptions = {}): Promise<SessionResponse> {
  const sessionCall = isSessionCall(url);
  const send = (token: string | null) =>
    fetch(url, { ...options, credentials: 'include', headers: buildHeaders(options, token, !sessionCall) });

  const usedToken = session.accessToken();
  let response = await send(usedToken);
  let refreshAttempted = false;

  if (response.status === 401 && !sessionCall) {
    refreshAttempted = true;
    // Another call may already have refreshed while this one was in flight; then its new token is simply reused.
    const latest = session.accessToken();
    const refreshed = latest !== null && latest !== usedToken ? true : await refreshAccessToken();
    if (refreshed) response = await send(session.accessToken());
  }
  return { response, refreshAttempted };
}

/** Turns a failed answer into an `ApiError` carrying the catalogue message of the page language. */
export async function apiErrorOf(response: Response, refreshAttempted: boolean): Promise<ApiError> {
  const json = parseJson(await response.text().catch(() => ''));
  return new ApiError(messageForApiError(json, currentLang()), response.status, json, refreshAttempted);
}

/** The one way the console talks to the API for JSON: JSON in and out, through `fetchWithSession`. */
export async function httpClient<T = unknown>(url: string, options: FetchOptions = {}): Promise<JsonResponse<T>> {
  const { response, refreshAttempted } = await fetchWithSession(url, options);
  const text = await response.text();
  const json = parseJson(text);
  if (!response.ok) {
    throw new ApiError(messageForApiError(json, currentLang()), response.status, json, refreshAttempted);
  }
  return { status: response.status, headers: response.headers, body: text, json: json as T };
}
