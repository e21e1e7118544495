import { isStaffRole, LIMITS, type StaffSessionEndReason } from '@kupa/proto';
import { DomainError } from '../../../kernel';
import type { CommandActor } from './user.decider';
import { USER_ERRORS } from './user.errors';
import type { UserEvent } from './user.events';
import type { UserState } from './user.state';

/**
 * An admin ends a client's sessions (docs/adr/0099-sessions-list-end-and-new-device-notice.md): only an admin, only
 * of a client or an ambassador (a staff account's sessions end through its password or its two-factor reset), never
 * their own. The reason is told to the client; the note, trimmed, is for the activity log only.
 */
export function endSessionsByStaff(
  command: { actor: CommandActor; reason: StaffSessionEndReason; note: string | null; sessionCount: number; at: Date },
  state: UserState,
): UserEvent[] {
  if (!state.exists) throw new DomainError(USER_ERRORS.notFound);
  if (command.actor.role !== 'ADMIN') throw new DomainError(USER_ERRORS.forbidden, { reason: 'not.admin' });
  if (isStaffRole(state.role)) throw new DomainError(USER_ERRORS.forbidden, { reason: 'staff.account' });
  const note = command.note?.trim().slice(0, LIMITS.noteMaxLength) || null;
  return [
    {
      type: 'UserSessionsEndedByStaff',
      data: {
        userUuid: state.userUuid,
        userRole: state.role,
        sessionCount: command.sessionCount,
        reason: command.reason,
        note,
        endedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Whether a sign-in is from a new device, which earns the owner a notice (ADR 0099): a browser this user never signed
 * in with, once the user has signed in at all; the very first sign-in is no news.
 */
export function isNewDevice(history: { signedInBefore: boolean; deviceSeenBefore: boolean }): boolean {
  return history.signedInBefore && !history.deviceSeenBefore;
}
