import { type UserRole } from '@kupa/proto';
import { Menu, usePermissions } from 'react-admin';
import { resourcesForRole } from '../resources';

/** The sidebar lists exactly the resources the signed-in role may open (docs/product.md, Screens). */
export function KupaMenu() {
  const { permissions } = usePermissions<UserRole | null>();
  return (
    <Menu>
      {resourcesForRole(permissions ?? null).map((name) => (
        <Menu.ResourceItem key={name} name={name} data-testid={`menu-${name}`} />
      ))}
    </Menu>
  );
}
