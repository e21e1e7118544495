import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { SignInResponse, UserRole } from '@kupa/proto';

export interface UserSession {
  email: string | null;
  userUuid: string | null;
  userRole: UserRole | null;
  accessToken: string | null;
}

interface UserStore extends UserSession {
  signIn: (response: SignInResponse) => void;
  setAccessToken: (accessToken: string) => void;
  clear: () => void;
}

const EMPTY_SESSION: UserSession = { email: null, userUuid: null, userRole: null, accessToken: null };

/**
 * The signed-in user, persisted under the `user` key so a reload keeps the session. The refresh token is an
 * httpOnly cookie and never reaches this store.
 */
export const useUserStore = create<UserStore>()(
  persist(
    (set) => ({
      ...EMPTY_SESSION,
      signIn: ({ email, userUuid, userRole, accessToken }) => set({ email, userUuid, userRole, accessToken }),
      setAccessToken: (accessToken) => set({ accessToken }),
      clear: () => set(EMPTY_SESSION),
    }),
    {
      name: 'user',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ email, userUuid, userRole, accessToken }) => ({ email, userUuid, userRole, accessToken }),
    },
  ),
);
