import { administrationRefusal, isStaffRole, type Language, type UserRole, type UserStatus } from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';
import { type StepUpCheck, stepUpRefusal } from './step-up.rules';
import { USER_ERRORS } from './user.errors';
import type { UserEvent } from './user.events';
import { evolveUser, type ExistingUser, initialUserState, type UserState } from './user.state';

/**
 * The user stream's decisions: one pure function per command, each from the command and the folded state to the
 * events it appends (or a `DomainError`). Time arrives inside the command as `at`.
 */

/** How a user stream's state follows from its events: what the command pipeline folds. */
export const userEvolution: Evolution<UserState, UserEvent> = { evolve: evolveUser, initialState: initialUserState };

/** Who asks for a staff command; `null` is the system itself (the startup bootstrap, the CLI). */
export interface CommandActor {
  userUuid: string;
  role: UserRole;
}

export interface NewUserFields {
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  profileId: string;
  language: Language;
  at: Date;
}

function existing(state: UserState): ExistingUser {
  if (!state.exists) throw new DomainError(USER_ERRORS.notFound);
  return state;
}

/**
 * Staff guard rails (docs/adr/0003-staff-guard-rails.md): nobody administers their own account through staff
 * commands, and only an admin administers staff accounts or makes someone staff. The system actor may do anything.
 * The rule itself lives in proto, so the staff console offers exactly the changes that pass here.
 */
function assertMayAdminister(actor: CommandActor | null, target: ExistingUser, grantedRole?: UserRole): void {
  if (actor === null) return;
  const reason = administrationRefusal(actor, target, grantedRole);
  if (reason !== null) throw new DomainError(USER_ERRORS.forbidden, { reason });
}

export function registerUser(
  command: NewUserFields & { referrerProfileId: string | null },
  state: UserState,
): UserEvent[] {
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
}

export function createUserByStaff(command: NewUserFields & { role: UserRole }, state: UserState): UserEvent[] {
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

export function confirmEmail(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  if (user.status === 'ACTIVE') throw new DomainError(USER_ERRORS.alreadyActive);
  if (user.status === 'BLOCKED') throw new DomainError(USER_ERRORS.blocked);
  return [
    {
      type: 'UserEmailConfirmed',
      data: { userUuid: user.userUuid, userRole: user.role, status: 'ACTIVE', confirmedAt: command.at.toISOString() },
    },
  ];
}

/**
 * A confirmation mail is sent again only to an account that still waits for it; for any other account the request
 * is answered the same way (the call tells nobody who is registered) and nothing is appended.
 */
export function requestConfirmationMail(command: { language: Language; at: Date }, state: UserState): UserEvent[] {
  if (!state.exists || state.status !== 'NON_VERIFIED') return [];
  return [
    {
      type: 'UserConfirmationMailRequested',
      data: {
        userUuid: state.userUuid,
        userRole: state.role,
        language: command.language,
        requestedAt: command.at.toISOString(),
      },
    },
  ];
}

export function requestPasswordReset(command: { language: Language; at: Date }, state: UserState): UserEvent[] {
  if (!state.exists) return [];
  return [
    {
      type: 'UserPasswordResetRequested',
      data: {
        userUuid: state.userUuid,
        userRole: state.role,
        language: command.language,
        requestedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * A name change. Anyone may change their own name; changing someone else's is staff administration, so the staff
 * guard rails apply (a manager may not rename an admin or another manager; ADR 0059).
 */
export function updateProfile(
  command: { firstName: string; lastName: string; actor: CommandActor | null },
  state: UserState,
): UserEvent[] {
  const user = existing(state);
  if (command.actor?.userUuid !== user.userUuid) assertMayAdminister(command.actor, user);
  if (user.firstName === command.firstName && user.lastName === command.lastName) return [];
  return [
    {
      type: 'UserProfileUpdated',
      data: { userUuid: user.userUuid, userRole: user.role, firstName: command.firstName, lastName: command.lastName },
    },
  ];
}

export function changePassword(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  return [
    {
      type: 'UserPasswordChanged',
      data: { userUuid: user.userUuid, userRole: user.role, changedAt: command.at.toISOString() },
    },
  ];
}

/**
 * The owner asks to sign in with another address (docs/adr/0100-change-of-e-mail.md). The handler has checked the
 * current password and the step-up code; whether another account holds the address is read before deciding and
 * passed in. Nothing about the account changes: the event has a link mailed to the new address and a notice to the
 * current one.
 */
export function requestEmailChange(
  command: { newEmail: string; addressTaken: boolean; language?: Language; at: Date },
  state: UserState,
): UserEvent[] {
  const user = existing(state);
  if (user.status === 'BLOCKED') throw new DomainError(USER_ERRORS.blocked);
  if (user.email === command.newEmail) throw new DomainError(USER_ERRORS.emailTaken);
  if (command.addressTaken) throw new DomainError(USER_ERRORS.emailTaken);
  return [
    {
      type: 'UserEmailChangeRequested',
      data: {
        userUuid: user.userUuid,
        userRole: user.role,
        newEmail: command.newEmail,
        currentEmail: user.email,
        language: command.language ?? user.language,
        requestedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * The link mailed to the new address was followed, which proves the address: the account moves to it. An address
 * another account took since the request is refused with its own code (the owner asks again with another one), and a
 * blocked account's link changes nothing.
 */
export function changeEmail(
  command: { newEmail: string; addressTaken: boolean; at: Date },
  state: UserState,
): UserEvent[] {
  const user = existing(state);
  if (user.status === 'BLOCKED') throw new DomainError(USER_ERRORS.blocked);
  if (user.email === command.newEmail) throw new DomainError(USER_ERRORS.emailTaken);
  if (command.addressTaken) throw new DomainError(USER_ERRORS.emailTakenMeanwhile);
  return [
    {
      type: 'UserEmailChanged',
      data: {
        userUuid: user.userUuid,
        userRole: user.role,
        previousEmail: user.email,
        email: command.newEmail,
        changedAt: command.at.toISOString(),
      },
    },
  ];
}

export function resetPassword(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  const reset: UserEvent = {
    type: 'UserPasswordReset',
    data: { userUuid: user.userUuid, userRole: user.role, resetAt: command.at.toISOString() },
  };
  // The reset link went to the account's address, so following it proves the address as well as a confirmation link.
  if (user.status !== 'NON_VERIFIED') return [reset];
  return [
    {
      type: 'UserEmailConfirmed',
      data: { userUuid: user.userUuid, userRole: user.role, status: 'ACTIVE', confirmedAt: command.at.toISOString() },
    },
    reset,
  ];
}

export function setPasswordByStaff(command: { actor: CommandActor | null; at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  assertMayAdminister(command.actor, user);
  return [
    {
      type: 'UserPasswordSetByStaff',
      data: { userUuid: user.userUuid, userRole: user.role, setAt: command.at.toISOString() },
    },
  ];
}

export function changeStatus(
  command: { status: UserStatus; actor: CommandActor | null },
  state: UserState,
): UserEvent[] {
  const user = existing(state);
  assertMayAdminister(command.actor, user);
  if (user.status === command.status) return [];
  return [
    {
      type: 'UserStatusChanged',
      data: { userUuid: user.userUuid, userRole: user.role, previousStatus: user.status, status: command.status },
    },
  ];
}

export function changeRole(command: { role: UserRole; actor: CommandActor | null }, state: UserState): UserEvent[] {
  const user = existing(state);
  assertMayAdminister(command.actor, user, command.role);
  if (user.role === command.role) return [];
  return [{ type: 'UserRoleChanged', data: { userUuid: user.userUuid, previousRole: user.role, role: command.role } }];
}

export function rejectTrial(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  if (user.trialUsed) throw new DomainError(USER_ERRORS.trialAlreadyUsed);
  if (user.trialRejected) return [];
  return [
    {
      type: 'UserTrialRejected',
      data: { userUuid: user.userUuid, userRole: user.role, rejectedAt: command.at.toISOString() },
    },
  ];
}

/**
 * The trial is taken once per user, and not after it was declined: the subscriptions context appends this with the
 * trial subscription, in one command that locks the user's stream (docs/product.md, Subscriptions).
 */
export function markTrialUsed(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  if (user.trialUsed || user.trialRejected) throw new DomainError(USER_ERRORS.trialAlreadyUsed);
  return [
    { type: 'UserTrialUsed', data: { userUuid: user.userUuid, userRole: user.role, usedAt: command.at.toISOString() } },
  ];
}

export function addNote(command: { noteId: string; text: string; at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
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
}

export function deleteNote(command: { noteId: string; at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
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

/**
 * Two-factor sign-in, for staff (docs/adr/0018-staff-two-factor-sign-in.md) and for clients and ambassadors alike
 * (docs/adr/0098-client-two-factor-and-step-up.md). The handler has already checked the first code against the
 * pending secret; the decider keeps the account-level rules.
 */
export function enableTwoFactor(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  if (user.twoFactorEnabled) throw new DomainError(USER_ERRORS.twoFactorAlreadyEnabled);
  return [
    {
      type: 'UserTwoFactorEnabled',
      data: { userUuid: user.userUuid, userRole: user.role, enabledAt: command.at.toISOString() },
    },
  ];
}

/** The owner turns their own two-factor sign-in off; the handler has checked the code they sent (step-up). */
export function disableTwoFactor(command: { at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  if (!user.twoFactorEnabled) throw new DomainError(USER_ERRORS.twoFactorNotEnabled);
  return [
    {
      type: 'UserTwoFactorDisabled',
      data: { userUuid: user.userUuid, userRole: user.role, disabledAt: command.at.toISOString() },
    },
  ];
}

/**
 * An admin removes another account's two-factor sign-in (a lost phone), a staff member's or a client's. The staff
 * guard rails apply: nobody resets their own (they turn it off with a code instead), and only an admin touches a
 * staff account (the route itself is for admins). Resetting an account without it changes nothing, so a repeated
 * click appends nothing.
 */
export function resetTwoFactor(command: { actor: CommandActor | null; at: Date }, state: UserState): UserEvent[] {
  const user = existing(state);
  assertMayAdminister(command.actor, user);
  if (!user.twoFactorEnabled) return [];
  return [
    {
      type: 'UserTwoFactorReset',
      data: { userUuid: user.userUuid, userRole: user.role, resetAt: command.at.toISOString() },
    },
  ];
}

/**
 * A call that needs a step-up code goes on only when the code passed (docs/adr/0098-client-two-factor-and-step-up.md);
 * it appends nothing itself, the call it guards does.
 */
export function confirmStepUp(command: { check: StepUpCheck }, state: UserState): UserEvent[] {
  const user = existing(state);
  const refusal = stepUpRefusal(user.twoFactorEnabled, command.check);
  if (refusal !== null) throw new DomainError(refusal);
  return [];
}

/**
 * A staff member views the portal as a client, read only (docs/adr/0092-refund-to-balance-and-view-as.md): admins and
 * managers, only of a client or ambassador (a staff account is never looked at through the portal), and never their
 * own. Each opening and each request made with the view's token is one event, so the log shows who looked at what.
 */
export function recordViewAs(
  command: { actor: CommandActor; viewId: string; page: string | null; at: Date },
  state: UserState,
): UserEvent[] {
  const user = existing(state);
  if (!isStaffRole(command.actor.role)) throw new DomainError(USER_ERRORS.forbidden, { reason: 'not.staff' });
  if (isStaffRole(user.role)) throw new DomainError(USER_ERRORS.viewAsStaffAccount);
  return [
    {
      type: 'UserViewedByStaff',
      data: {
        userUuid: user.userUuid,
        userRole: user.role,
        viewId: command.viewId,
        page: command.page,
        viewedAt: command.at.toISOString(),
      },
    },
  ];
}
