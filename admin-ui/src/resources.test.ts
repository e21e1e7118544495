import { describe, expect, it } from 'vitest';
import {
  canListSubscriptions,
  canManagePackages,
  canReadLedger,
  hasDashboard,
  homePathFor,
  isForbiddenPath,
  resourcesForRole,
  sidebarForRole,
} from './resources';

describe('sidebar per role', () => {
  it('gives admins every staff resource and managers clients, transfer claims, packages and the activity log', () => {
    expect(sidebarForRole('ADMIN')).toEqual([
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
    ]);
    expect(sidebarForRole('MANAGER')).toEqual(['clients', 'deposit-claims', 'packages', 'promo-codes', 'activity-log']);
  });

  it("registers subscriptions for managers too, without a sidebar entry: they open details from a client's tab", () => {
    expect(resourcesForRole('ADMIN')).toEqual([
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
    ]);
    expect(resourcesForRole('MANAGER')).toEqual([
      'clients',
      'subscriptions',
      'deposit-claims',
      'packages',
      'promo-codes',
      'activity-log',
    ]);
    expect(canListSubscriptions('ADMIN')).toBe(true);
    expect(canListSubscriptions('MANAGER')).toBe(false);
  });

  it('gives customers and anonymous visitors nothing', () => {
    expect(resourcesForRole('CLIENT')).toEqual([]);
    expect(sidebarForRole('CLIENT')).toEqual([]);
    expect(resourcesForRole('AMBASSADOR')).toEqual([]);
    expect(resourcesForRole(null)).toEqual([]);
  });
});

describe('ledger history access', () => {
  it('is open to admins and managers only', () => {
    expect(canReadLedger('ADMIN')).toBe(true);
    expect(canReadLedger('MANAGER')).toBe(true);
    expect(canReadLedger('CLIENT')).toBe(false);
    expect(canReadLedger('AMBASSADOR')).toBe(false);
    expect(canReadLedger(null)).toBe(false);
  });
});

describe('routes a role may not open', () => {
  it("lead to the admin's dashboard and the manager's first sidebar entry", () => {
    expect(homePathFor('ADMIN')).toBe('/');
    expect(homePathFor('MANAGER')).toBe('/clients');
    expect(hasDashboard('ADMIN')).toBe(true);
    expect(hasDashboard('MANAGER')).toBe(false);
  });

  it("keep a manager out of the subscriptions list but let them open a subscription's details", () => {
    expect(isForbiddenPath('MANAGER', '/subscriptions')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/subscriptions/s-1')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/subscriptions/s-1/show')).toBe(false);
    expect(isForbiddenPath('ADMIN', '/subscriptions')).toBe(false);
  });

  it("are the other role's resources and the ledger for a role without it, not unknown paths", () => {
    expect(isForbiddenPath('MANAGER', '/payments/42/show')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/subscriptions')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/clients/u-1')).toBe(false);
    expect(isForbiddenPath('ADMIN', '/payments')).toBe(false);
    expect(isForbiddenPath('MANAGER', '/ledger/history')).toBe(false);
    expect(isForbiddenPath('CLIENT', '/ledger/history')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/no-such-page')).toBe(false);
    expect(isForbiddenPath('MANAGER', '/')).toBe(false);
  });
});

describe('package management', () => {
  it('is for admins only: managers read packages but change none', () => {
    expect(canManagePackages('ADMIN')).toBe(true);
    expect(canManagePackages('MANAGER')).toBe(false);
    expect(canManagePackages('CLIENT')).toBe(false);
    expect(canManagePackages(null)).toBe(false);
  });

  it("sends a manager who opens a package's create or edit page home, not to page not found", () => {
    expect(isForbiddenPath('MANAGER', '/packages/create')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/packages/p-1')).toBe(true);
    expect(isForbiddenPath('MANAGER', '/packages/p-1/show')).toBe(false);
    expect(isForbiddenPath('MANAGER', '/packages')).toBe(false);
    expect(isForbiddenPath('ADMIN', '/packages/create')).toBe(false);
    expect(isForbiddenPath('ADMIN', '/packages/p-1')).toBe(false);
  });
});
