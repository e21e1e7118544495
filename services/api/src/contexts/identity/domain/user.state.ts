import type { Language, UserRole, UserStatus } from '@kupa/proto';
import type { UserEvent } from './user.events';

export interface ExistingUser {
  exists: true;
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  status: UserStatus;
  profileId: string;
  language: Language;
  trialUsed: boolean;
  trialRejected: boolean;
  /** Whether sign-in asks for a one-time code (the secret itself is in the two-factor table, never in events). */
  twoFactorEnabled: boolean;
  /** Ids of the notes that were added and not deleted. */
  noteIds: ReadonlySet<string>;
}

export type UserState = { exists: false } | ExistingUser;

export function initialUserState(): UserState {
  return { exists: false };
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
    case 'UserCreatedByStaff':
      return {
        exists: true,
        userUuid: event.data.userUuid,
        email: event.data.email,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        role: event.data.role,
        status: event.data.status,
        profileId: event.data.profileId,
        language: event.data.language,
        trialUsed: false,
        trialRejected: false,
        twoFactorEnabled: false,
        noteIds: new Set(),
      };
  }
  // Every other event changes a user that exists; an event for a missing user would be corrupt history.
  if (!state.exists) throw new Error(`Event ${event.type} on a user stream with no creation event`);
  switch (event.type) {
    case 'UserEmailConfirmed':
      return { ...state, status: event.data.status };
    case 'UserProfileUpdated':
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    case 'UserStatusChanged':
      return { ...state, status: event.data.status };
    case 'UserRoleChanged':
      return { ...state, role: event.data.role };
    case 'UserTrialRejected':
      return { ...state, trialRejected: true };
    case 'UserTrialUsed':
      return { ...state, trialUsed: true };
    case 'UserNoteAdded':
      return { ...state, noteIds: new Set([...state.noteIds, event.data.noteId]) };
    case 'UserNoteDeleted': {
      const noteIds = new Set(state.noteIds);
      noteIds.delete(event.data.noteId);
      return { ...state, noteIds };
    }
    case 'UserTwoFactorEnabled':
      return { ...state, twoFactorEnabled: true };
    case 'UserTwoFactorDisabled':
    case 'UserTwoFactorReset':
      return { ...state, twoFactorEnabled: false };
    case 'UserEmailChanged':
      return { ...state, email: event.data.email };
    case 'UserEmailChangeRequested':
    case 'UserPasswordChanged':
    case 'UserPasswordReset':
    case 'UserPasswordSetByStaff':
    case 'UserConfirmationMailRequested':
    case 'UserPasswordResetRequested':
    case 'UserViewedByStaff':
    case 'UserSessionsEndedByStaff':
      return state;
  }
}
