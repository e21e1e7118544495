import { type UserRole } from '@kupa/proto';

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
