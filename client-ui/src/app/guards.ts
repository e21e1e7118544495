import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { isStaffRole } from '@kupa/proto';
import { authApi } from '../lib/api/endpoints';
import { useUserStore } from '../lib/stores/user-store';
import { safeReturnPath } from '../lib/navigation';
import { endViewAs } from '../lib/view-as/end-view-as';
import { isViewAsTab, VIEW_AS_PATH } from '../lib/view-as/view-as-tab';
import { canAccess, homePathFor, isStaffConsolePath, type AppPath } from './access';

/**
 * The authenticated area's gate. Without a token the user goes to the login screen, which keeps the address asked
 * for and opens it after signing in (`/` needs no keeping: it is where signing in leads anyway). Staff accounts belong
 * to the staff console: their session here is ended and the login screen tells them where to go instead.
 */
export function requireSession({ location }: { location: Pick<ParsedLocation, 'href' | 'pathname'> }): void {
  const { accessToken, userRole } = useUserStore.getState();
  // A staff member's view of a client: without it (ended, never opened) the tab says so; it never asks for a sign-in.
  if (isViewAsTab()) {
    if (!accessToken || !userRole) throw redirect({ to: VIEW_AS_PATH });
    return;
  }
  if (!accessToken || !userRole) {
    const asked = location.pathname === '/' ? null : safeReturnPath(location.href);
    throw redirect({ to: '/login', search: asked ? { redirect: asked } : {} });
  }
  if (isStaffRole(userRole)) {
    // The server-side refresh cookie is revoked in the background; the local session ends right away. (The API
    // client is in the first-screen chunk anyway, the sign-in page's own import: ADR 0048.)
    authApi.logout().catch(() => undefined);
    useUserStore.getState().clear();
    throw redirect({ to: '/login', search: { notice: 'staff' } });
  }
}

/** A route the signed-in role may not open leads to `/`, which in turn picks the role's home. */
export function requireRole(path: AppPath): () => void {
  return () => {
    if (!canAccess(useUserStore.getState().userRole, path)) throw redirect({ to: '/' });
  };
}

/**
 * An address this app does not have: a staff console section leads to `/` (the role may not open it), anything else
 * is the not-found screen inside the signed-in frame.
 */
export function redirectStaffConsolePath({ location }: { location: Pick<ParsedLocation, 'pathname'> }): void {
  if (isStaffConsolePath(location.pathname)) throw redirect({ to: '/' });
}

export function redirectHome(): never {
  const { userRole } = useUserStore.getState();
  if (!userRole) throw redirect({ to: '/login' });
  throw redirect({ to: homePathFor(userRole) });
}

/** The login screen is pointless with a session: go home instead. A view tab has no sign-in of its own. */
export function redirectIfSignedIn(): void {
  if (isViewAsTab()) throw redirect({ to: VIEW_AS_PATH });
  if (useUserStore.getState().accessToken) throw redirect({ to: '/' });
}

/** Signing out of a staff member's view is ending the view, which forgets the token and nothing else. */
export function endViewInsteadOfSignOut(): void {
  if (!isViewAsTab()) return;
  endViewAs();
  throw redirect({ to: VIEW_AS_PATH });
}
