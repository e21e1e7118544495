import { isStaffRole, type Language, type UserRole, type UserStatus } from '@kupa/proto';
import { type Decider, DomainError } from '../../../platform/decider/decider';
import { USER_ERRORS } from './user.errors';
import type { UserEvent } from './user.events';
import { evolveUser, type ExistingUser, initialUserState, type UserState } from './user.state';

/** Who asks for a staff command; `null` is the system itself (the startup bootstrap, the CLI). */
export interface CommandActor {
  userUuid: string;
  role: UserRole;
}

interface NewUserFields {
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  profileId: string;
  language: Language;
}

export type UserCommand =
  | ({ type: 'RegisterUser'; referrerProfileId: string | null; at: Date } & NewUserFields)
  | ({ type: 'CreateUserByStaff'; role: UserRole; at: Date } & NewUserFields)
  | { type: 'ConfirmEmail'; at: Date }
  | { type: 'UpdateProfile'; firstName: string; lastName: string }
  | { type: 'ChangePassword'; at: Date }
  | { type: 'ResetPassword'; at: Date }
  | { type: 'SetPasswordByStaff'; actor: CommandActor | null; at: Date }
  | { type: 'ChangeStatus'; status: UserStatus; actor: CommandActor | null }
  | { type: 'ChangeRole'; role: UserRole; actor: CommandActor | null }
  | { type: 'RejectTrial'; at: Date }
  | { type: 'MarkTrialUsed'; at: Date }
  | { type: 'AddNote'; noteId: string; text: string; at: Date }
  | { type: 'DeleteNote'; noteId: string; at: Date };

function existing(state: UserState): ExistingUser {
  if (!state.exists) throw new DomainError(USER_ERRORS.notFound);
  return state;
}

/**
 * Staff guard rails (docs/adr/0003-staff-guard-rails.md): nobody administers their own account through staff
 * commands, and only an admin administers staff accounts or makes someone staff. The system actor may do anything.
 */
function assertMayAdminister(actor: CommandActor | null, target: ExistingUser, grantedRole?: UserRole): void {
  if (actor === null) return;
  if (actor.userUuid === target.userUuid) throw new DomainError(USER_ERRORS.forbidden, { reason: 'own.account' });
  const touchesStaff = isStaffRole(target.role) || (grantedRole !== undefined && isStaffRole(grantedRole));
  if (touchesStaff && actor.role !== 'ADMIN') throw new DomainError(USER_ERRORS.forbidden, { reason: 'staff.account' });
}

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.exists) throw new DomainError(USER_ERRORS.alreadyExists);
      return [
        {
          type: 'UserRegistered',
          data: {
            userUuid: command.userUuid,
            email: command.email,
            firstName: command.firstName,
            lastName: command.lastName,
            role: 'CLIENT',
            status: 'NON_VERIFIED',
            profileId: command.profileId,
            language: command.language,
            referrerProfileId: command.referrerProfileId,
            registeredAt: command.at.toISOString(),
          },
        },
      ];
    case 'CreateUserByStaff':
      if (state.exists) throw new DomainError(USER_ERRORS.alreadyExists);
      return [
        {
          type: 'UserCreatedByStaff',
          data: {
            userUuid: command.userUuid,
            email: command.email,
            firstName: command.firstName,
            lastName: command.lastName,
            role: command.role,
            status: 'ACTIVE',
            profileId: command.profileId,
            language: command.language,
            createdAt: command.at.toISOString(),
          },
        },
      ];
  }

  const user = existing(state);
  switch (command.type) {
    case 'ConfirmEmail':
      if (user.status === 'ACTIVE') throw new DomainError(USER_ERRORS.alreadyActive);
      if (user.status === 'BLOCKED') throw new DomainError(USER_ERRORS.blocked);
      return [
        {
          type: 'UserEmailConfirmed',
          data: {
            userUuid: user.userUuid,
            userRole: user.role,
            status: 'ACTIVE',
            confirmedAt: command.at.toISOString(),
          },
        },
      ];

    case 'UpdateProfile':
      if (user.firstName === command.firstName && user.lastName === command.lastName) return [];
      return [
        {
          type: 'UserProfileUpdated',
          data: {
            userUuid: user.userUuid,
            userRole: user.role,
            firstName: command.firstName,
            lastName: command.lastName,
          },
        },
      ];

    case 'ChangePassword':
      return [
        {
          type: 'UserPasswordChanged',
          data: { userUuid: user.userUuid, userRole: user.role, changedAt: command.at.toISOString() },
        },
      ];

    case 'ResetPassword': {
      const reset: UserEvent = {
        type: 'UserPasswordReset',
        data: { userUuid: user.userUuid, userRole: user.role, resetAt: command.at.toISOString() },
      };
      // The reset link went to the account's address, so following it proves the address as well as a confirmation link.
      if (user.status !== 'NON_VERIFIED') return [reset];
      return [
        {
          type: 'UserEmailConfirmed',
          data: {
            userUuid: user.userUuid,
            userRole: user.role,
            status: 'ACTIVE',
            confirmedAt: command.at.toISOString(),
          },
        },
        reset,
      ];
    }

    case 'SetPasswordByStaff':
      assertMayAdminister(command.actor, user);
      return [
        {
          type: 'UserPasswordSetByStaff',
          data: { userUuid: user.userUuid, userRole: user.role, setAt: command.at.toISOString() },
        },
      ];

    case 'ChangeStatus':
      assertMayAdminister(command.actor, user);
      if (user.status === command.status) return [];
      return [
        {
          type: 'UserStatusChanged',
          data: { userUuid: user.userUuid, userRole: user.role, previousStatus: user.status, status: command.status },
        },
      ];

    case 'ChangeRole':
      assertMayAdminister(command.actor, user, command.role);
      if (user.role === command.role) return [];
      return [
        { type: 'UserRoleChanged', data: { userUuid: user.userUuid, previousRole: user.role, role: command.role } },
      ];

    case 'RejectTrial':
      if (user.trialUsed) throw new DomainError(USER_ERRORS.trialAlreadyUsed);
      if (user.trialRejected) return [];
      return [
        {
          type: 'UserTrialRejected',
          data: { userUuid: user.userUuid, userRole: user.role, rejectedAt: command.at.toISOString() },
        },
      ];

    case 'MarkTrialUsed':
      if (user.trialUsed) throw new DomainError(USER_ERRORS.trialAlreadyUsed);
      return [
        {
          type: 'UserTrialUsed',
          data: { userUuid: user.userUuid, userRole: user.role, usedAt: command.at.toISOString() },
        },
      ];

    case 'AddNote':
      return [
        {
          type: 'UserNoteAdded',
          data: {
            userUuid: user.userUuid,
            userRole: user.role,
            noteId: command.noteId,
            text: command.text,
            addedAt: command.at.toISOString(),
          },
        },
      ];

    case 'DeleteNote':
      if (!user.noteIds.has(command.noteId)) throw new DomainError(USER_ERRORS.noteNotFound);
      return [
        {
          type: 'UserNoteDeleted',
          data: {
            userUuid: user.userUuid,
            userRole: user.role,
            noteId: command.noteId,
            deletedAt: command.at.toISOString(),
          },
        },
      ];
  }
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
