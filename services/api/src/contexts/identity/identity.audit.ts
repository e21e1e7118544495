import type { AuditTargetType, UserEventDataByType, UserRole } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper, AuditName } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { UserEventType } from './domain/user.events';
import type { UserReader } from './projections/users/user-reader';
import { fullNameOf } from './projections/users/user-view';

/** Staff accounts are their own activity-log targets; ambassadors are clients with a bonus, so they count as CLIENT. */
export function auditTargetTypeOf(role: UserRole): AuditTargetType {
  if (role === 'ADMIN') return 'ADMIN';
  if (role === 'MANAGER') return 'MANAGER';
  return 'CLIENT';
}

/** The activity-log target types that are people: identity names them. */
export const AUDIT_PERSON_TARGET_TYPES: readonly AuditTargetType[] = Object.freeze(['ADMIN', 'MANAGER', 'CLIENT']);

/** Names the people behind a page of activity-log ids with one read of the users read model. */
export async function auditNamesOf(users: UserReader, ids: readonly string[]): Promise<Map<string, AuditName>> {
  const views = await users.findByUuids(ids);
  return new Map(views.map((view) => [view.uuid, { name: fullNameOf(view), email: view.email }]));
}

function entry<Type extends UserEventType>(
  operationType: AuditEntryDraft['operationType'],
  describe: (data: UserEventDataByType[Type]) => { role: UserRole; fields: Record<string, unknown> },
): AuditMapper {
  return (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as UserEventDataByType[Type];
    const { role, fields } = describe(data);
    return { targetType: auditTargetTypeOf(role), targetId: data.userUuid, parent: null, operationType, fields };
  };
}

/** What an account starts with, whether the user signed up or staff created it, so both entries read alike. */
function createdAccountFields(
  data: Pick<
    UserEventDataByType['UserCreatedByStaff'],
    'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'profileId' | 'language'
  >,
): Record<string, unknown> {
  return {
    email: data.email,
    firstName: data.firstName,
    lastName: data.lastName,
    role: data.role,
    status: data.status,
    profileId: data.profileId,
    language: data.language,
  };
}

/**
 * How each identity event reads in the activity log: the user-visible values it sets. Password events record only
 * when the password changed; hashes and tokens are never in events to begin with.
 */
export const IDENTITY_AUDIT_MAPPERS: Readonly<Record<UserEventType, AuditMapper>> = Object.freeze({
  UserRegistered: entry<'UserRegistered'>('CREATED', (data) => ({
    role: data.role,
    fields: { ...createdAccountFields(data), referrerProfileId: data.referrerProfileId },
  })),
  UserCreatedByStaff: entry<'UserCreatedByStaff'>('CREATED', (data) => ({
    role: data.role,
    fields: createdAccountFields(data),
  })),
  UserEmailConfirmed: entry<'UserEmailConfirmed'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { status: data.status },
  })),
  UserProfileUpdated: entry<'UserProfileUpdated'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { firstName: data.firstName, lastName: data.lastName },
  })),
  UserPasswordChanged: entry<'UserPasswordChanged'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { passwordChangedAt: data.changedAt },
  })),
  UserPasswordReset: entry<'UserPasswordReset'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { passwordChangedAt: data.resetAt },
  })),
  UserPasswordSetByStaff: entry<'UserPasswordSetByStaff'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { passwordChangedAt: data.setAt },
  })),
  UserStatusChanged: entry<'UserStatusChanged'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { status: data.status },
  })),
  UserRoleChanged: entry<'UserRoleChanged'>('UPDATED', (data) => ({ role: data.role, fields: { role: data.role } })),
  UserTwoFactorEnabled: entry<'UserTwoFactorEnabled'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { twoFactorEnabled: true },
  })),
  UserTwoFactorDisabled: entry<'UserTwoFactorDisabled'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { twoFactorEnabled: false },
  })),
  UserTwoFactorReset: entry<'UserTwoFactorReset'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { twoFactorEnabled: false },
  })),
  // Read only: nothing of the client changed. The log keeps what changed since the previous entry, so the time always
  // shows (one entry per request), the view's id when a new view opens, and the page when it differs from the last.
  UserViewedByStaff: entry<'UserViewedByStaff'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { viewAsId: data.viewId, viewAsPage: data.page, viewedAsAt: data.viewedAt },
  })),
  // Why an admin ended a client's sessions (ADR 0099): the reason the client is told, and the admin's note.
  UserSessionsEndedByStaff: entry<'UserSessionsEndedByStaff'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { sessionsEndedCount: data.sessionCount, sessionsEndedReason: data.reason, sessionsEndedNote: data.note },
  })),
  UserTrialRejected: entry<'UserTrialRejected'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { trialRejected: true },
  })),
  UserTrialUsed: entry<'UserTrialUsed'>('UPDATED', (data) => ({ role: data.userRole, fields: { trialUsed: true } })),
  UserNoteAdded: entry<'UserNoteAdded'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { [`note.${data.noteId}`]: data.text },
  })),
  UserNoteDeleted: entry<'UserNoteDeleted'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { [`note.${data.noteId}`]: null },
  })),
  UserConfirmationMailRequested: entry<'UserConfirmationMailRequested'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { confirmationMailRequestedAt: data.requestedAt },
  })),
  UserPasswordResetRequested: entry<'UserPasswordResetRequested'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { passwordResetRequestedAt: data.requestedAt },
  })),
  // The address asked for shows in the entry's detail; the account keeps its address until the link is followed.
  UserEmailChangeRequested: entry<'UserEmailChangeRequested'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { emailChangeTo: data.newEmail, emailChangeRequestedAt: data.requestedAt },
  })),
  // The log keeps what changed since the last entry, so the sentence reads "e-mail old → new": the address history.
  UserEmailChanged: entry<'UserEmailChanged'>('UPDATED', (data) => ({
    role: data.userRole,
    fields: { email: data.email },
  })),
});
