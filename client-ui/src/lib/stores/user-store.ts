import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { SessionEndReason, SignInResponse, UserRole } from '@kupa/proto';
import { isViewAsTab } from '../view-as/view-as-tab';

export interface UserSession {
  email: string | null;
  userUuid: string | null;
  userRole: UserRole | null;
  accessToken: string | null;
}

interface UserStore extends UserSession {
  /**
   * Why the last session ended, when the login screen should say it (docs/adr/0056-sessions-end-and-second-factor-
   * on-every-path.md); null after a sign-in, a sign-out of one's own, or a refusal that explains nothing.
   */
  endReason: SessionEndReason | null;
  signIn: (response: SignInResponse) => void;
  setAccessToken: (accessToken: string) => void;
  /** The role the server now reports (staff changed it); the menus and route guards follow it. */
  setRole: (userRole: UserRole) => void;
  clear: (endReason?: SessionEndReason | null) => void;
}

const EMPTY_SESSION: UserSession = { email: null, userUuid: null, userRole: null, accessToken: null };

/**
 * The signed-in user, persisted under the `user` key so a reload keeps the session. The refresh token is an
 * httpOnly cookie and never reaches this store. A tab that shows the portal to staff as a client keeps that view's
 * session in its own `sessionStorage` instead, so the browser's real session is neither replaced nor signed out
 * (docs/adr/0092-refund-to-balance-and-view-as.md).
 */
export const useUserStore = create<UserStore>()(
  persist(
    (set) => ({
      ...EMPTY_SESSION,
      endReason: null,
      signIn: ({ email, userUuid, userRole, accessToken }) =>
        set({ email, userUuid, userRole, accessToken, endReason: null }),
      setAccessToken: (accessToken) => set({ accessToken }),
      setRole: (userRole) => set({ userRole }),
      clear: (endReason = null) => set({ ...EMPTY_SESSION, endReason }),
    }),
    {
      name: 'user',
      storage: createJSONStorage(() => (isViewAsTab() ? sessionStorage : localStorage)),
      partialize: ({ email, userUuid, userRole, accessToken, endReason }) => ({
        email,
        userUuid,
        userRole,
        accessToken,
        endReason,
      }),
    },
  ),
);
