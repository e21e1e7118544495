import { type UserRole } from '@kupa/proto';
import { ACCOUNT_HISTORY_PATH } from './ledger/account-paths';

export const RESOURCE_NAMES = ['clients', 'subscriptions', 'payments', 'packages', 'activity-log'] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/**
 * Which resources each staff role sees, in sidebar order (docs/product.md, Screens). A resource that is not listed is
 * not registered either, so its routes do not exist for that role.
 */
const BY_ROLE: Partial<Record<UserRole, readonly ResourceName[]>> = {
  ADMIN: ['clients', 'subscriptions', 'payments', 'packages', 'activity-log'],
  MANAGER: ['clients', 'packages', 'activity-log'],
};

export function resourcesForRole(role: UserRole | null): readonly ResourceName[] {
  return (role && BY_ROLE[role]) || [];
}

/**
 * Who may open the ledger's account history: both staff roles (docs/product.md, Permissions), managers reaching it from
 * a client's detail. It is a custom route rather than a resource, so it has no sidebar entry of its own (the product
 * fixes the sidebar).
 */
export function canReadLedger(role: UserRole | null): boolean {
  return role === 'ADMIN' || role === 'MANAGER';
}

/** The role's home: its first sidebar entry (docs/product.md, Screens), or the root when it has none. */
export function homePathFor(role: UserRole | null): string {
  const first = resourcesForRole(role)[0];
  return first ? `/${first}` : '/';
}

/**
 * Whether a console path (without the `/admin` prefix) is one the console has, but not for this role: a resource of
 * another role's sidebar, a package's create or edit page for a role that may not change packages, or the ledger
 * history for a role that may not read it. Such an address leads to the role's home rather than to "page not found",
 * since the page exists and the user is simply not the one to open it.
 */
export function isForbiddenPath(role: UserRole | null, path: string): boolean {
  const [first = '', id, page] = path.split('/').filter((segment) => segment !== '');
  if ((RESOURCE_NAMES as readonly string[]).includes(first)) {
    if (!resourcesForRole(role).includes(first as ResourceName)) return true;
    // `/packages/create` and `/packages/{id}` (the edit page) are an admin's; the list and `…/show` are every staff's.
    return first === 'packages' && id !== undefined && page !== 'show' && !canManagePackages(role);
  }
  const ledgerRoot = ACCOUNT_HISTORY_PATH.split('/')[1];
  return first === ledgerRoot && !canReadLedger(role);
}

/**
 * Who may create, edit, activate or deactivate and delete packages: admins only (docs/product.md, Permissions). A
 * manager reads the packages list and a package's details, and sees no control that would change one.
 */
export function canManagePackages(role: UserRole | null): boolean {
  return role === 'ADMIN';
}
