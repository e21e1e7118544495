import { describe, expect, it } from 'vitest';
import { administrationRefusal, assignableRoles } from './staff-rules';

const admin = { userUuid: 'a-1', role: 'ADMIN' } as const;
const manager = { userUuid: 'm-1', role: 'MANAGER' } as const;
const client = { userUuid: 'c-1', role: 'CLIENT' } as const;
const otherManager = { userUuid: 'm-2', role: 'MANAGER' } as const;

describe('staff guard rails', () => {
  it('refuses anyone their own account', () => {
    expect(administrationRefusal(admin, admin)).toBe('own.account');
    expect(administrationRefusal(manager, { ...manager })).toBe('own.account');
  });

  it('lets a manager administer customers only, and never grant a staff role', () => {
    expect(administrationRefusal(manager, client)).toBeNull();
    expect(administrationRefusal(manager, client, 'AMBASSADOR')).toBeNull();
    expect(administrationRefusal(manager, client, 'MANAGER')).toBe('staff.account');
    expect(administrationRefusal(manager, client, 'ADMIN')).toBe('staff.account');
    expect(administrationRefusal(manager, otherManager)).toBe('staff.account');
  });

  it('lets an admin administer any other account', () => {
    expect(administrationRefusal(admin, otherManager, 'ADMIN')).toBeNull();
    expect(administrationRefusal(admin, client, 'MANAGER')).toBeNull();
  });

  it('offers each actor exactly the roles the rule accepts, the current one included', () => {
    expect(assignableRoles(manager, client)).toEqual(['CLIENT', 'AMBASSADOR']);
    expect(assignableRoles(manager, otherManager)).toEqual(['MANAGER']);
    expect(assignableRoles(admin, client)).toEqual(['ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR']);
    expect(assignableRoles(admin, admin)).toEqual(['ADMIN']);
  });
});
