import { type UserRole } from '@kupa/proto';
import { Menu, usePermissions } from 'react-admin';
import { hasDashboard, sidebarForRole } from '../resources';

/**
 * The sidebar (docs/product.md, Screens): the dashboard first for an admin, then the role's sidebar resources. A
 * resource the role opens only as details (a manager's subscriptions) has no entry.
 */
export function KupaMenu() {
  const { permissions } = usePermissions<UserRole | null>();
  return (
    <Menu>
      {hasDashboard(permissions ?? null) ? <Menu.DashboardItem data-testid="menu-dashboard" /> : null}
      {sidebarForRole(permissions ?? null).map((name) => (
        <Menu.ResourceItem key={name} name={name} data-testid={`menu-${name}`} />
      ))}
    </Menu>
  );
}
