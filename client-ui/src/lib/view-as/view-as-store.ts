import { useEffect, useState } from 'react';
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

export type ViewAsState = { status: 'none' } | { status: 'active' | 'ended'; session: ViewAsSession };

/** The open view and whether it has ended, by its clock or by the API's refusal; re-renders when the time comes. */
export function useViewAs(now: () => number = Date.now): ViewAsState {
  const session = useViewAsStore((state) => state.session);
  const refused = useViewAsStore((state) => state.refused);
  const endsAt = session ? new Date(session.expiresAt).getTime() : null;
  const [, setTick] = useState(0);
  useEffect(() => {
    if (endsAt === null) return undefined;
    const left = endsAt - now();
    if (left <= 0) return undefined;
    // Browsers cap a timer at about 24.8 days; a view lasts 15 minutes.
    const timer = setTimeout(() => setTick((tick) => tick + 1), left);
    return () => clearTimeout(timer);
  }, [endsAt, now]);
  if (!session || endsAt === null) return { status: 'none' };
  return { status: refused || now() >= endsAt ? 'ended' : 'active', session };
}
