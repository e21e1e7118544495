import {
  createSessionClient,
  messageForApiError,
  type SessionApp,
  type SessionRequestInit,
  type SessionResponse,
} from '@kupa/proto';
import { HttpError } from 'react-admin';
import { currentLang } from '../i18n/language';
import { session } from './session';

/**
 * The console names itself on every call, so that the API keeps its session in a refresh cookie of its own: a client
 * signed in at `/` in the same browser keeps theirs (docs/adr/0009-refresh-sessions-per-app.md).
 */
export const SESSION_APP: SessionApp = 'admin';

/**
 * The session HTTP client both UIs share, over the console's stored session. A lost session is forgotten here, with
 * the reason the sign-in page explains (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md);
 * react-admin's `checkError` then sends the user to the login page.
 */
const sessionClient = createSessionClient({
  app: SESSION_APP,
  accessToken: () => session.accessToken(),
  storeAccessToken: (accessToken) => session.setAccessToken(accessToken),
  onSignedOut: (reason) => {
    session.clear();
    session.noteEnd(reason);
  },
});

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export type FetchOptions = SessionRequestInit;

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

/** Asks for a new access token with the httpOnly refresh cookie, sharing the refresh already running if any. */
export async function refreshAccessToken(): Promise<boolean> {
  // The console keeps its behaviour: a refresh that cannot reach the server counts as a failed one.
  return (await sessionClient.refresh().catch(() => null)) !== null;
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Sends one API call (a path of `API_ROUTES`) through the shared session client: cookies, the access token, and on
 * a 401 one shared refresh and one retry (docs/product.md, Screens). The answer is returned unread, so a caller may stream its body (the CSV
 * export).
 */
export function fetchWithSession(path: string, options: FetchOptions = {}): Promise<SessionResponse> {
  return sessionClient.request(path, options);
}

/** Turns a failed answer into an `ApiError` carrying the catalogue message of the page language. */
export async function apiErrorOf(response: Response, refreshAttempted: boolean): Promise<ApiError> {
  const json = parseJson(await response.text().catch(() => ''));
  return new ApiError(messageForApiError(json, currentLang()), response.status, json, refreshAttempted);
}

/**
 * The one way the console talks to the API for JSON, and react-admin's `fetchJson` for `ra-data-simple-rest`: JSON
 * in and out, through `fetchWithSession`.
 */
export async function httpClient<T = unknown>(path: string, options: FetchOptions = {}): Promise<JsonResponse<T>> {
  const { response, refreshAttempted } = await fetchWithSession(path, options);
  const text = await response.text();
  const json = parseJson(text);
  if (!response.ok) {
    throw new ApiError(messageForApiError(json, currentLang()), response.status, json, refreshAttempted);
  }
  return { status: response.status, headers: response.headers, body: text, json: json as T };
}
