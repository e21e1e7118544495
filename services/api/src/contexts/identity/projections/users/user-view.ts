import type { Language, UserRole, UserStatus } from '@kupa/proto';

/** One account as the users read model holds it (a row of `users`, kept inline with the user stream's events). */
export interface UserView {
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  status: UserStatus;
  profileId: string;
  createdAt: Date;
  updatedAt: Date;
  trialUsed: boolean;
  trialRejected: boolean;
  twoFactorEnabled: boolean;
  language: Language;
  referrerProfileId: string | null;
}

/** A row of `users u` as `USER_COLUMNS` selects it. */
export interface UserRow {
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  role: UserRole;
  status: UserStatus;
  profile_id: string;
  created_at: Date;
  updated_at: Date;
  trial_used: boolean;
  trial_rejected: boolean;
  two_factor_enabled: boolean;
  language: Language;
  referrer_profile_id: string | null;
}

/** The columns of `users u` that make a `UserView`, for every query that reads whole accounts. */
export const USER_COLUMNS = `u.uuid, u.email, u.first_name, u.last_name, u.role, u.status, u.profile_id, u.created_at,
  u.updated_at, u.trial_used, u.trial_rejected, u.two_factor_enabled, u.language, u.referrer_profile_id`;

export function toUserView(row: UserRow): UserView {
  return {
    uuid: row.uuid,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    status: row.status,
    profileId: row.profile_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    trialUsed: row.trial_used,
    trialRejected: row.trial_rejected,
    twoFactorEnabled: row.two_factor_enabled,
    language: row.language,
    referrerProfileId: row.referrer_profile_id,
  };
}

/** How a person is named on screens and in the activity log: first and last name, either possibly empty. */
export function fullNameOf(view: Pick<UserView, 'firstName' | 'lastName'>): string {
  return `${view.firstName} ${view.lastName}`.trim();
}
