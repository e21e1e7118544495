import { createSessionClient, type SessionApp, sessionEndReasonOf } from '@kupa/proto';
import { currentPath, loginPathReturningTo, navigateTo } from '../navigation';
import { useUserStore } from '../stores/user-store';
import { useViewAsStore } from '../view-as/view-as-store';
import { isViewAsTab } from '../view-as/view-as-tab';
import { ApiError, connectionLostError, readErrorBody } from './api-error';

/**
 * The client app names itself on every call, so that the API keeps its session in a refresh cookie of its own: staff
 * signing in to the console in the same browser do not replace it (docs/adr/0009-refresh-sessions-per-app.md).
 */
export const SESSION_APP: SessionApp = 'client';

const BLOCKED_CODE = 'error.account.blocked';

/**
 * The session HTTP client both UIs share, over the persisted user store. A lost session goes to the login screen,
 * except one lost because the account was blocked (its refresh refused with the blocked code): that one goes to the
 * blocked notice, as a call refused by the block does. A session that ended by policy or by an event keeps its reason,
 * which the login screen explains.
 */
const session = createSessionClient({
  app: SESSION_APP,
  accessToken: () => useUserStore.getState().accessToken,
  storeAccessToken: (accessToken) => useUserStore.getState().setAccessToken(accessToken),
  onSignedOut: (reason) => {
    useUserStore.getState().clear(sessionEndReasonOf(reason));
    // Signing in again brings the user back to the screen they were on.
    navigateTo(reason === BLOCKED_CODE ? '/blocked' : loginPathReturningTo(currentPath()));
  },
});

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
  /** The answer is a file's text (a CSV download), not JSON. */
  text?: boolean;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${path}${search ? `?${search}` : ''}`;
}

async function toResult<T>(response: Response, asText?: boolean): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (asText) return text as T;
  return (text ? JSON.parse(text) : undefined) as T;
}

async function toError(response: Response, viewing: boolean): Promise<ApiError> {
  const error = new ApiError(response.status, await readErrorBody(response));
  if (viewing && response.status === 401) {
    // A staff member's view has no session to renew: its end is shown where the screen was (no sign-in page).
    useViewAsStore.getState().refuse();
    error.handled = true;
    return error;
  }
  if (response.status === 403 && error.code === BLOCKED_CODE) {
    useUserStore.getState().clear();
    navigateTo('/blocked');
    error.handled = true;
  }
  return error;
}

/**
 * One call to the API: JSON in and out, through the shared session client (cookies, the bearer token, one shared
 * refresh and one retry on a 401). When the session turns out to be gone the user is already on the login screen,
 * so the error is marked handled and no toast repeats it.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  // A view-as token is never refreshed: the refresh cookie in this browser belongs to someone else's session.
  const viewing = isViewAsTab();
  let outcome: Awaited<ReturnType<typeof session.request>>;
  try {
    outcome = await session.request(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      skipRefresh: options.skipRefresh || viewing,
    });
  } catch (error) {
    // A call cancelled on purpose stays a cancellation; any other failure to fetch means no server answered.
    if (options.signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) throw error;
    throw connectionLostError();
  }
  const { response, signedOut } = outcome;
  if (response.ok) return toResult<T>(response, options.text);
  const error = await toError(response, viewing);
  if (signedOut) error.handled = true;
  throw error;
}

/**
 * A file from the API (a receipt's PDF), through the same session client as `apiRequest`: the bearer token, one
 * refresh and one retry on a 401. The page language asks for the file's.
 */
export async function apiDownload(path: string, language: string): Promise<Blob> {
  const viewing = isViewAsTab();
  let outcome: Awaited<ReturnType<typeof session.request>>;
  try {
    outcome = await session.request(path, {
      method: 'GET',
      headers: { 'Accept-Language': language },
      skipRefresh: viewing,
    });
  } catch {
    throw connectionLostError();
  }
  const { response, signedOut } = outcome;
  if (response.ok) return response.blob();
  const error = await toError(response, viewing);
  if (signedOut) error.handled = true;
  throw error;
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
