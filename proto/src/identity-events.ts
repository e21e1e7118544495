import type { Language, UserRole, UserStatus } from './enums';
import type { StaffSessionEndReason } from './session';
import type { IsoDateTime } from './payloads';

/**
 * Events of the identity context (stream `user-{uuid}`), with their payloads. Password hashes and tokens never
 * appear here: they live in the identity context's credentials and token tables.
 */
export const USER_EVENT_TYPES = Object.freeze({
  registered: 'UserRegistered',
  createdByStaff: 'UserCreatedByStaff',
  emailConfirmed: 'UserEmailConfirmed',
  profileUpdated: 'UserProfileUpdated',
  passwordChanged: 'UserPasswordChanged',
  passwordReset: 'UserPasswordReset',
  passwordSetByStaff: 'UserPasswordSetByStaff',
  sessionsEndedByStaff: 'UserSessionsEndedByStaff',
  statusChanged: 'UserStatusChanged',
  roleChanged: 'UserRoleChanged',
  trialRejected: 'UserTrialRejected',
  trialUsed: 'UserTrialUsed',
  noteAdded: 'UserNoteAdded',
  noteDeleted: 'UserNoteDeleted',
  confirmationMailRequested: 'UserConfirmationMailRequested',
  passwordResetRequested: 'UserPasswordResetRequested',
  twoFactorEnabled: 'UserTwoFactorEnabled',
  twoFactorDisabled: 'UserTwoFactorDisabled',
  twoFactorReset: 'UserTwoFactorReset',
  viewedByStaff: 'UserViewedByStaff',
  emailChangeRequested: 'UserEmailChangeRequested',
  emailChanged: 'UserEmailChanged',
} as const);

export type UserEventType = (typeof USER_EVENT_TYPES)[keyof typeof USER_EVENT_TYPES];

export const USER_STREAM_PREFIX = 'user-';

export function userStreamId(userUuid: string): string {
  return `${USER_STREAM_PREFIX}${userUuid}`;
}

/**
 * An admin ended a client's sessions (ADR 0099): which ones, why (told to the client by a catalogue code) and the
 * admin's note; the admin is the event's actor.
 */
export interface UserSessionsEndedByStaffData {
  userUuid: string;
  userRole: UserRole;
  sessionCount: number;
  reason: StaffSessionEndReason;
  note: string | null;
  endedAt: IsoDateTime;
}

/** A client signed up: not verified until the e-mailed link is opened. */
export interface UserRegisteredData {
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  status: UserStatus;
  profileId: string;
  language: Language;
  referrerProfileId: string | null;
  registeredAt: IsoDateTime;
}

/** An admin (or the bootstrap) created an account that is active at once. */
export interface UserCreatedByStaffData {
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  status: UserStatus;
  profileId: string;
  language: Language;
  createdAt: IsoDateTime;
}

export interface UserEmailConfirmedData {
  userUuid: string;
  /** The user's role when the event happened, so readers (the activity log) can classify it alone. */
  userRole: UserRole;
  status: UserStatus;
  confirmedAt: IsoDateTime;
}

export interface UserProfileUpdatedData {
  userUuid: string;
  userRole: UserRole;
  firstName: string;
  lastName: string;
}

export interface UserPasswordChangedData {
  userUuid: string;
  userRole: UserRole;
  changedAt: IsoDateTime;
}

export interface UserPasswordResetData {
  userUuid: string;
  userRole: UserRole;
  resetAt: IsoDateTime;
}

export interface UserPasswordSetByStaffData {
  userUuid: string;
  userRole: UserRole;
  setAt: IsoDateTime;
}

export interface UserStatusChangedData {
  userUuid: string;
  userRole: UserRole;
  previousStatus: UserStatus;
  status: UserStatus;
}

export interface UserRoleChangedData {
  userUuid: string;
  previousRole: UserRole;
  role: UserRole;
}

export interface UserTrialRejectedData {
  userUuid: string;
  userRole: UserRole;
  rejectedAt: IsoDateTime;
}

export interface UserTrialUsedData {
  userUuid: string;
  userRole: UserRole;
  usedAt: IsoDateTime;
}

export interface UserNoteAddedData {
  userUuid: string;
  userRole: UserRole;
  noteId: string;
  text: string;
  addedAt: IsoDateTime;
}

export interface UserNoteDeletedData {
  userUuid: string;
  userRole: UserRole;
  noteId: string;
  deletedAt: IsoDateTime;
}

/**
 * Someone asked for the confirmation mail again. The mail processor sends it with a fresh link; the link's token is
 * made when the mail is sent and is never part of an event.
 */
export interface UserConfirmationMailRequestedData {
  userUuid: string;
  userRole: UserRole;
  /** The language the mail is written in: the one the request came in, else the account's. */
  language: Language;
  requestedAt: IsoDateTime;
}

/** Someone asked for a password-reset link for this account; the mail processor sends it. */
export interface UserPasswordResetRequestedData {
  userUuid: string;
  userRole: UserRole;
  language: Language;
  requestedAt: IsoDateTime;
}

/**
 * A staff member confirmed their authenticator with a first code: sign-in asks for a code from now on. The secret and
 * the recovery codes live in the identity context's two-factor tables, never in events.
 */
export interface UserTwoFactorEnabledData {
  userUuid: string;
  userRole: UserRole;
  enabledAt: IsoDateTime;
}

/** The staff member turned two-factor sign-in off themself, proving it with a code. */
export interface UserTwoFactorDisabledData {
  userUuid: string;
  userRole: UserRole;
  disabledAt: IsoDateTime;
}

/** An admin removed another staff member's two-factor sign-in (a lost authenticator); the actor is in the metadata. */
export interface UserTwoFactorResetData {
  userUuid: string;
  userRole: UserRole;
  resetAt: IsoDateTime;
}

/**
 * A staff member looked at the portal as this client, read only (docs/adr/0092-refund-to-balance-and-view-as.md):
 * once when the view opens (`page` null) and once per request made with its token (`page` is "METHOD /path", without
 * the query). The staff member is the event's actor; `viewId` ties the requests of one opening together.
 */
export interface UserViewedByStaffData {
  userUuid: string;
  userRole: UserRole;
  viewId: string;
  page: string | null;
  viewedAt: IsoDateTime;
}

/**
 * The owner asked to sign in with another address (docs/adr/0100-change-of-e-mail.md), proving it with their password
 * and, with two-factor sign-in on, a step-up code. Nothing changes yet: the mail processor sends a single-use link to
 * the new address and a notice to the current one; the link's token is made when the mail is sent, never an event.
 */
export interface UserEmailChangeRequestedData {
  userUuid: string;
  userRole: UserRole;
  /** The address the account asks to move to; the current one is the account's `email` until the link is followed. */
  newEmail: string;
  /** The address the request was made from, so the notice reaches it even if another change happens first. */
  currentEmail: string;
  language: Language;
  requestedAt: IsoDateTime;
}

/** The link mailed to the new address was followed: the account signs in with `email` from now on. */
export interface UserEmailChangedData {
  userUuid: string;
  userRole: UserRole;
  previousEmail: string;
  email: string;
  changedAt: IsoDateTime;
}

export interface UserEventDataByType {
  UserRegistered: UserRegisteredData;
  UserCreatedByStaff: UserCreatedByStaffData;
  UserEmailConfirmed: UserEmailConfirmedData;
  UserProfileUpdated: UserProfileUpdatedData;
  UserPasswordChanged: UserPasswordChangedData;
  UserPasswordReset: UserPasswordResetData;
  UserPasswordSetByStaff: UserPasswordSetByStaffData;
  UserSessionsEndedByStaff: UserSessionsEndedByStaffData;
  UserStatusChanged: UserStatusChangedData;
  UserRoleChanged: UserRoleChangedData;
  UserTrialRejected: UserTrialRejectedData;
  UserTrialUsed: UserTrialUsedData;
  UserNoteAdded: UserNoteAddedData;
  UserNoteDeleted: UserNoteDeletedData;
  UserConfirmationMailRequested: UserConfirmationMailRequestedData;
  UserPasswordResetRequested: UserPasswordResetRequestedData;
  UserTwoFactorEnabled: UserTwoFactorEnabledData;
  UserTwoFactorDisabled: UserTwoFactorDisabledData;
  UserTwoFactorReset: UserTwoFactorResetData;
  UserViewedByStaff: UserViewedByStaffData;
  UserEmailChangeRequested: UserEmailChangeRequestedData;
  UserEmailChanged: UserEmailChangedData;
}

/** One identity event as a tagged union: `{type, data}`, the shape the event store appends. */
export type UserEvent = { [Type in UserEventType]: { type: Type; data: UserEventDataByType[Type] } }[UserEventType];
