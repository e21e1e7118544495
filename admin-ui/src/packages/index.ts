import { type UserRole } from '@kupa/proto';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import { type ResourceProps } from 'react-admin';
import { canManagePackages } from '../resources';
import { lazyPage } from '../shared/lazy-page';

const PackageCreate = lazyPage(() => import('./package-create'), 'PackageCreate');
const PackageEdit = lazyPage(() => import('./package-edit'), 'PackageEdit');
const PackageList = lazyPage(() => import('./package-list'), 'PackageList');
const PackageShow = lazyPage(() => import('./package-show'), 'PackageShow');

/**
 * The packages resource for a role: everyone on staff lists and reads packages; only an admin gets the create and
 * edit pages, so for a manager those routes do not exist (docs/product.md, Permissions).
 */
export function packagesFor(role: UserRole | null): Omit<ResourceProps, 'name'> {
  const read = { list: PackageList, show: PackageShow, icon: Inventory2Icon, recordRepresentation: 'name' };
  return canManagePackages(role) ? { ...read, create: PackageCreate, edit: PackageEdit } : read;
}
