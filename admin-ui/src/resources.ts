import { type UserRole } from '@kupa/proto';
import { ACCOUNT_HISTORY_PATH } from './ledger/account-paths';

export const RESOURCE_NAMES = [
  'clients',
  'subscriptions',
  'payments',
  'deposit-claims',
  'vouchers',
  'packages',
  'promo-codes',
  'broadcasts',
  'activity-log',
  'bulk-operations',
  'staff',
] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/**
 * Which resources each staff role sees in the sidebar, in order (docs/product.md, Screens).
 */
const SIDEBAR_BY_ROLE: Partial<Record<UserRole, readonly ResourceName[]>> = {
  // Staff last: administering colleagues' accounts is rarer than the business's daily lists (ADR 0078).
  // Vouchers beside payments: both are money, and only admins handle either (ADR 0089).
  // Broadcasts are admins' only: the recipient list is every client's address (ADR 0091).
  // Bulk operations after the activity log: a rare, heavy tool, for admins only (ADR 0090).
  ADMIN: [
    'clients',
    'subscriptions',
    'payments',
    // Transfer claims beside payments: settling one is a manual deposit (ADR 0112).
    'deposit-claims',
    'vouchers',
    'packages',
    'promo-codes',
    'broadcasts',
    'activity-log',
    'bulk-operations',
    'staff',
  ],
  // Managers read the promo codes' list; creating and disabling are an admin's (ADR 0088).
  // Managers see the transfer claims and reject them; settling (a manual deposit) is an admin's (ADR 0112).
  MANAGER: ['clients', 'deposit-claims', 'packages', 'promo-codes', 'activity-log'],
};

/**
 * Resources a role reaches without a sidebar entry: a manager opens a subscription's details from a client's
 * subscriptions tab, but has no subscriptions list (docs/product.md, Screens).
 */
const DETAILS_ONLY_BY_ROLE: Partial<Record<UserRole, readonly ResourceName[]>> = {
  MANAGER: ['subscriptions'],
};

/** The role's sidebar entries, in order. */
export function sidebarForRole(role: UserRole | null): readonly ResourceName[] {
  return (role && SIDEBAR_BY_ROLE[role]) || [];
}

/**
 * The resources registered for a role: its sidebar's and those it opens only as details. A resource that is not
 * listed is not registered either, so its routes do not exist for that role.
 */
export function resourcesForRole(role: UserRole | null): readonly ResourceName[] {
  const detailsOnly = (role && DETAILS_ONLY_BY_ROLE[role]) || [];
  return RESOURCE_NAMES.filter((name) => sidebarForRole(role).includes(name) || detailsOnly.includes(name));
}

/** Who has the subscriptions list: admins; managers open a subscription only from a client's detail. */
export function canListSubscriptions(role: UserRole | null): boolean {
  return role === 'ADMIN';
}

/** Who has the dashboard, as their landing page: admins only (its figures are the business's money). */
export function hasDashboard(role: UserRole | null): boolean {
  return role === 'ADMIN';
}

/**
 * Who may open the ledger's account history: both staff roles (docs/product.md, Permissions), managers reaching it from
 * a client's detail. It is a custom route rather than a resource, so it has no sidebar entry of its own (the product
 * fixes the sidebar).
 */
export function canReadLedger(role: UserRole | null): boolean {
  return role === 'ADMIN' || role === 'MANAGER';
}

/**
 * The role's home (docs/product.md, Screens): the dashboard for an admin, otherwise the first sidebar entry, or the
 * root when it has none.
 */
export function homePathFor(role: UserRole | null): string {
  if (hasDashboard(role)) return '/';
  const first = sidebarForRole(role)[0];
  return first ? `/${first}` : '/';
}

/**
 * Whether a console path (without the `/admin` prefix) is one the console has, but not for this role: a resource of
 * another role's sidebar, a package's create or edit page for a role that may not change packages, or the ledger
 * history for a role that may not read it, or the list of a resource the role opens only as details. Such an address leads to the role's home rather than to "page not found",
 * since the page exists and the user is simply not the one to open it.
 */
export function isForbiddenPath(role: UserRole | null, path: string): boolean {
  const [first = '', id, page] = path.split('/').filter((segment) => segment !== '');
  if ((RESOURCE_NAMES as readonly string[]).includes(first)) {
    if (!resourcesForRole(role).includes(first as ResourceName)) return true;
    // A resource the role opens only as details (`/subscriptions/{id}/show` for a manager): its list is not theirs.
    if (!sidebarForRole(role).includes(first as ResourceName)) return id === undefined || page !== 'show';
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
