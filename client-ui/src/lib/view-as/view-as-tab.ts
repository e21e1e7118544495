/**
 * Whether this browser tab shows the portal to a staff member as one client, read only
 * (docs/adr/0092-refund-to-balance-and-view-as.md). Such a tab keeps its session in `sessionStorage`: the tab's own,
 * gone with the tab, never the `localStorage` session that the client (or anyone else) signed in with in this
 * browser, which the view neither replaces nor signs out.
 */
export const VIEW_AS_PATH = '/view-as';

/** The `sessionStorage` key of the view's state (who, until when); its presence marks the tab. */
export const VIEW_AS_STORAGE_KEY = 'view-as';

function storedViewAsSession(): boolean {
  try {
    const text = window.sessionStorage.getItem(VIEW_AS_STORAGE_KEY);
    if (text === null) return false;
    const stored = JSON.parse(text) as { state?: { session?: unknown } } | null;
    return stored?.state?.session != null;
  } catch {
    return false;
  }
}

/**
 * A tab is a view tab when it was opened on the view's address or holds an open view. Asked when the stores are
 * created and on each API call and route guard, so a tab never mixes the two sessions.
 */
export function isViewAsTab(): boolean {
  if (typeof window === 'undefined') return false;
  return window.location.pathname === VIEW_AS_PATH || storedViewAsSession();
}
