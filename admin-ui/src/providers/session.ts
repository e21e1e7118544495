import { type SessionEndReason, sessionEndReasonOf, type SignInResponse } from '@kupa/proto';

/**
 * The signed-in staff member: the access token and who it belongs to. It lives in memory for speed and in
 * localStorage so that a reload (the language switch reloads) keeps the user signed in. The key differs from the
 * client app's user store because both apps share one origin and must not read each other's session.
 */
export const SESSION_STORAGE_KEY = 'kupa-admin-session';

/**
 * Why the last session ended, when the person should be told (an idle timeout, the absolute lifetime, an end by
 * another device or a security event, a missing second factor): the sign-in page says it above the form. Kept in
 * sessionStorage, so a reload of the sign-in page still says it and a new tab does not.
 */
export const SESSION_END_STORAGE_KEY = 'kupa-admin-session-end';

let cached: SignInResponse | null | undefined;

function load(): SignInResponse | null {
  try {
    const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SignInResponse>;
    if (typeof parsed.accessToken !== 'string' || typeof parsed.userUuid !== 'string') return null;
    return parsed as SignInResponse;
  } catch {
    return null;
  }
}

function save(value: SignInResponse | null): void {
  cached = value;
  try {
    if (value) window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(value));
    else window.localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Without storage the session still works in memory until the next reload.
  }
}

export const session = {
  get(): SignInResponse | null {
    if (cached === undefined) cached = load();
    return cached;
  },
  accessToken(): string | null {
    return session.get()?.accessToken ?? null;
  },
  set(value: SignInResponse): void {
    session.noteEnd(null);
    save(value);
  },
  /** Replaces the token after a refresh and keeps who the user is. */
  setAccessToken(accessToken: string): void {
    const current = session.get();
    if (current) save({ ...current, accessToken });
  },
  clear(): void {
    save(null);
  },
  /** Records why the session ended; a refusal that explains nothing (no cookie, a bare expiry) records nothing. */
  noteEnd(code: string | null | undefined): void {
    const reason = sessionEndReasonOf(code);
    try {
      if (reason) window.sessionStorage.setItem(SESSION_END_STORAGE_KEY, reason);
      else window.sessionStorage.removeItem(SESSION_END_STORAGE_KEY);
    } catch {
      // Without storage the sign-in page simply shows no explanation.
    }
  },
  endReason(): SessionEndReason | null {
    try {
      return sessionEndReasonOf(window.sessionStorage.getItem(SESSION_END_STORAGE_KEY));
    } catch {
      return null;
    }
  },
};
