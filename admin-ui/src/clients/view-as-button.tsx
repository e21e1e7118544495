import { isStaffRole, type User, type UserRole } from '@kupa/proto';
import { Button, Typography } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useState } from 'react';
import { useDataProvider, useNotify, usePermissions, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';

/** Who may look at a client's portal (docs/product.md, Permissions; the API's `@Roles` says the same). */
const VIEW_AS_ROLES: readonly UserRole[] = ['ADMIN', 'MANAGER'];

/** Whether the signed-in staff member may look at this account's portal. */
export function canViewAs(permissions: UserRole | null | undefined, client: Pick<User, 'role'>): boolean {
  return !!permissions && VIEW_AS_ROLES.includes(permissions) && !isStaffRole(client.role);
}

/**
 * The portal's view-as address for a token. The console and the portal are served from one origin (`/admin` and `/`,
 * docs/ARCHITECTURE.md), so the console's own origin is the portal's: no second setting to keep in step. The token
 * rides in the fragment, which the browser never sends to a server, so no access log or proxy records it.
 */
export function viewAsUrl(accessToken: string, origin: string = window.location.origin): string {
  return `${origin}/view-as#${encodeURIComponent(accessToken)}`;
}

/**
 * Opens the client's portal in a new tab, read only, for 15 minutes (docs/adr/0092-refund-to-balance-and-view-as.md).
 * Shown to admins and managers on a client's or ambassador's page, never on a staff account's (the API refuses those).
 */
export function ViewAsButton({ client }: { client: User }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { permissions } = usePermissions<UserRole | null>();
  const [pending, setPending] = useState(false);
  if (!canViewAs(permissions, client)) return null;

  const open = async () => {
    // The tab opens within the click, so no pop-up blocker stops it; its address follows the API's answer. It is cut
    // off from this window, so the portal cannot reach the console's page.
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    setPending(true);
    try {
      const { accessToken } = await dataProvider.openViewAs(client.userUuid);
      if (tab) tab.location.replace(viewAsUrl(accessToken));
      else notify('kupa.view_as.tab_blocked', { type: 'warning' });
    } catch (error) {
      tab?.close();
      // The HTTP client already turned the server's answer into the catalogue text of the page language.
      const message = error instanceof Error ? error.message : String(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {translate('kupa.view_as.hint')}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<VisibilityIcon />}
        onClick={() => void open()}
        disabled={pending}
        data-testid="view-as-open"
      >
        {translate('kupa.view_as.open')}
      </Button>
    </>
  );
}
