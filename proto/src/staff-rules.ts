import { isStaffRole, USER_ROLES, type UserRole } from './enums';

/** Who does something to an account, and the account it is done to: each by uuid and role. */
export interface AccountRef {
  userUuid: string;
  role: UserRole;
}

/** Why staff may not administer an account (the `details.reason` of the API's 403). */
export type AdministrationRefusal = 'own.account' | 'staff.account';

/**
 * The staff guard rails (docs/adr/0003-staff-guard-rails.md), in one place for the API's user decider and the staff
 * console: nobody administers their own account through staff calls, and only an admin administers a staff account
 * or grants a staff role. Answers why the actor may not change the target (granting `grantedRole`, if given), or
 * null when it may.
 */
export function administrationRefusal(
  actor: AccountRef,
  target: AccountRef,
  grantedRole?: UserRole,
): AdministrationRefusal | null {
  if (actor.userUuid === target.userUuid) return 'own.account';
  const touchesStaff = isStaffRole(target.role) || (grantedRole !== undefined && isStaffRole(grantedRole));
  if (touchesStaff && actor.role !== 'ADMIN') return 'staff.account';
  return null;
}

/**
 * The roles the actor may give the target, in `USER_ROLES` order, the target's current role always among them (it is
 * what the account already has). A manager looking at a client gets CLIENT and AMBASSADOR; at a staff account, only
 * its current role.
 */
export function assignableRoles(actor: AccountRef, target: AccountRef): UserRole[] {
  return USER_ROLES.filter((role) => role === target.role || administrationRefusal(actor, target, role) === null);
}
