import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { VIEW_AS_STORAGE_KEY } from './view-as-tab';

/** The view a staff member opened in this tab: whose, and until when (docs/adr/0092-refund-to-balance-and-view-as.md). */
export interface ViewAsSession {
  viewId: string;
  /** When the read-only token ends (ISO); the API refuses it from then on. */
  expiresAt: string;
  clientName: string;
  clientEmail: string;
}

interface ViewAsStore {
  session: ViewAsSession | null;
  /** The API refused the token before its time (staff blocked or demoted, the client's password changed). */
  refused: boolean;
  start(session: ViewAsSession): void;
  refuse(): void;
  end(): void;
}

/** Kept in the tab's `sessionStorage`: a reload keeps the view for its last minutes, a closed tab forgets it. */
export const useViewAsStore = create<ViewAsStore>()(
  persist(
    (set) => ({
      session: null,
      refused: false,
      start: (session) => set({ session, refused: false }),
      refuse: () => set({ refused: true }),
      end: () => set({ session: null, refused: false }),
    }),
    {
      name: VIEW_AS_STORAGE_KEY,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ session, refused }) => ({ session, refused }),
    },
  ),
);

/** Whether this tab shows the portal as a client for a staff member: every write is then shown disabled. */
export function useIsViewingAs(): boolean {
  return useViewAsStore((state) => state.session !== null);
}
