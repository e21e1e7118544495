import { type UserRole } from '@kupa/proto';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import { type ResourceProps } from 'react-admin';
import { canManagePackages } from '../resources';
import { PackageCreate } from './package-create';
import { PackageEdit } from './package-edit';
import { PackageList } from './package-list';
import { PackageShow } from './package-show';

/**
 * The packages resource for a role: everyone on staff lists and reads packages; only an admin gets the create and
 * edit pages, so for a manager those routes do not exist (docs/product.md, Permissions).
 */
export function packagesFor(role: UserRole | null): Omit<ResourceProps, 'name'> {
  const read = { list: PackageList, show: PackageShow, icon: Inventory2Icon, recordRepresentation: 'name' };
  return canManagePackages(role) ? { ...read, create: PackageCreate, edit: PackageEdit } : read;
}
