import { redirect } from '@tanstack/react-router';
import { isStaffRole } from '@kupa/proto';
import { authApi } from '../lib/api/endpoints';
import { useUserStore } from '../lib/stores/user-store';
import { canAccess, homePathFor, type AppPath } from './access';

/**
 * The authenticated area's gate. Without a token the user goes to the login screen. Staff accounts belong to the
 * staff console: their session here is ended and the login screen tells them where to go instead.
 */
export function requireSession(): void {
  const { accessToken, userRole } = useUserStore.getState();
  if (!accessToken || !userRole) throw redirect({ to: '/login' });
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

export function redirectHome(): never {
  const { userRole } = useUserStore.getState();
  if (!userRole) throw redirect({ to: '/login' });
  throw redirect({ to: homePathFor(userRole) });
}

/** The login screen is pointless with a session: go home instead. */
export function redirectIfSignedIn(): void {
  if (useUserStore.getState().accessToken) throw redirect({ to: '/' });
}
