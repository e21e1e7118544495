import { usersApi } from '../api/endpoints';
import { useUserStore } from '../stores/user-store';
import { useViewAsStore } from './view-as-store';
import { viewAsClaims } from './view-as-token';

/**
 * Opens the view a staff member's token grants: the token becomes this tab's session (never a refreshable one), and
 * the client's own record names who is viewed. Rejects when the token is not a view-as token or the API refuses it
 * (expired, or opened by someone who lost the right); the tab then holds no session.
 */
export async function openViewAs(token: string): Promise<void> {
  const claims = viewAsClaims(token);
  if (!claims) throw new Error('not a view-as token');
  useViewAsStore.getState().end();
  useUserStore.setState({ accessToken: token, userUuid: claims.sub, userRole: null, email: null, endReason: null });
  try {
    const me = await usersApi.me();
    useUserStore.setState({ email: me.email, userUuid: me.userUuid, userRole: me.role });
    useViewAsStore.getState().start({
      viewId: claims.vid,
      expiresAt: new Date(claims.exp * 1000).toISOString(),
      clientName: me.fullName,
      clientEmail: me.email,
    });
  } catch (error) {
    useUserStore.getState().clear();
    throw error;
  }
}
