import {
  ActorChangeNotifications1768200000100,
  DropUsersBalance1767400000100,
  IdentitySchema1767225600100,
  IdentitySessionVersions1767300001515,
  RefreshTokensRevokedBy1768600007900,
  SessionLifetimes1768400005600,
  TwoFactorSchema1767500000100,
  IdentityTokensEmail1770800010000,
} from './infrastructure/persistence/identity.migrations';
import {
  UserSessionsCountry1769000010100,
  UserSessionsTable1769000009900,
} from './infrastructure/sessions/user-sessions';

export { IdentityModule } from './identity.module';
export { AdminAccounts } from './application/admin-accounts';
export { REFRESH_COOKIE_SCHEMES } from './infrastructure/sessions/sessions';
export { type ActorAndOther, UserReader } from './projections/users/user-reader';
export { type NewDeviceNotification, UserSessions } from './infrastructure/sessions/user-sessions';
export type { UserView } from './projections/users/user-view';
export { fullNameOf } from './projections/users/user-view';
export { UserBalances } from './application/user-balances.port';
export { UserTelegramLinks } from './application/user-telegram-links.port';
export { type ReferralStanding, ReferralStandings } from './application/referral-standings.port';
export { TrialUse } from './application/trial-use';
export { TwoFactorStepUp } from './application/two-factor-step-up';
export { StepUpCodeField } from './infrastructure/http/dto-fields';
export { ClientSelection, type ClientFilter, type ClientSelectionResult } from './application/client-selection';
export { ClientFilterDto } from './queries/client-filter.dto';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const identityMigrations: Function[] = [
  IdentitySchema1767225600100,
  IdentitySessionVersions1767300001515,
  DropUsersBalance1767400000100,
  TwoFactorSchema1767500000100,
  ActorChangeNotifications1768200000100,
  SessionLifetimes1768400005600,
  RefreshTokensRevokedBy1768600007900,
  UserSessionsTable1769000009900,
  UserSessionsCountry1769000010100,
  IdentityTokensEmail1770800010000,
];

/** The embedded demo's accounts and its referred friend (ADR 0075). */
export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './application/identity-bootstrap';
export { SignUpCommand } from './commands/sign-up/sign-up.command';
export { ChangeUserStatusCommand } from './commands/change-user-status/change-user-status.command';
export { auditTargetTypeOf } from './identity.audit';
