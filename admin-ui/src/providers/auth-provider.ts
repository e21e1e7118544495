import { API_ROUTES, formatErrorMessage, isStaffRole, type SignInResponse, type User } from '@kupa/proto';
import { type AuthProvider, type UserIdentity } from 'react-admin';
import { currentLang } from '../i18n/language';
import { ApiError, fetchWithSession, httpClient, refreshAccessToken } from './http-client';
import { session } from './session';

export interface LoginParams {
  email: string;
  password: string;
  /** The second step for staff with two-factor sign-in on: an authenticator code or a recovery code. */
  otp?: string;
}

/** Ends the server-side session (the refresh cookie) without letting a failure block the local sign-out. */
async function serverLogout(accessToken: string | null): Promise<void> {
  try {
    await fetchWithSession(API_ROUTES.signOut, {
      method: 'POST',
      headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : undefined,
    });
  } catch {
    // The local session is cleared regardless; an unreachable server cannot keep a user signed in here.
  }
}

export const authProvider: AuthProvider = {
  async login({ email, password, otp }: LoginParams) {
    const { json } = await httpClient<SignInResponse>(API_ROUTES.signIn, {
      method: 'POST',
      body: JSON.stringify(otp === undefined ? { email, password } : { email, password, otp }),
    });
    if (!isStaffRole(json.userRole)) {
      // Clients and ambassadors have a valid account but belong in the client app at `/`. Their fresh server session
      // is closed at once so that no refresh cookie from this console stays behind.
      await serverLogout(json.accessToken);
      session.clear();
      throw new Error(formatErrorMessage('error.use.client.app', currentLang()));
    }
    session.set(json);
  },

  async logout() {
    const token = session.accessToken();
    session.clear();
    if (token) await serverLogout(token);
  },

  async checkAuth() {
    if (!session.accessToken()) throw new Error('ra.auth.auth_check_error');
  },

  async checkError(error: unknown) {
    const status = (error as { status?: number } | null)?.status;
    if (status !== 401) return;
    // The HTTP client already refreshed once and retried this very call; a 401 after that means the session is gone.
    if (error instanceof ApiError && error.refreshAttempted) {
      session.clear();
      throw error;
    }
    // A 401 from outside the client (no refresh yet): one shared refresh decides whether the user stays signed in.
    if (await refreshAccessToken()) return;
    session.clear();
    throw error;
  },

  async getPermissions() {
    return session.get()?.userRole ?? null;
  },

  async getIdentity(): Promise<UserIdentity> {
    const { json } = await httpClient<User>(API_ROUTES.me);
    return { id: json.userUuid, fullName: json.fullName || json.email, email: json.email };
  },
};
