import { type SignInResponse } from '@kupa/proto';

/**
 * The signed-in staff member: the access token and who it belongs to. It lives in memory for speed and in
 * localStorage so that a reload (the language switch reloads) keeps the user signed in. The key differs from the
 * client app's user store because both apps share one origin and must not read each other's session.
 */
export const SESSION_STORAGE_KEY = 'kupa-admin-session';

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
};
