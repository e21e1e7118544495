import { describe, expect, it } from 'vitest';
import { resourcesForRole } from './resources';

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
