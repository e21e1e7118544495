import { describe, expect, it } from 'vitest';
import { canReadLedger, resourcesForRole } from './resources';

describe('sidebar per role', () => {
  it('gives admins every staff resource and managers clients, packages and the activity log', () => {
    expect(resourcesForRole('ADMIN')).toEqual(['clients', 'subscriptions', 'payments', 'packages', 'activity-log']);
    expect(resourcesForRole('MANAGER')).toEqual(['clients', 'packages', 'activity-log']);
  });

  it('gives customers and anonymous visitors nothing', () => {
    expect(resourcesForRole('CLIENT')).toEqual([]);
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
