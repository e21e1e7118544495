import { CredentialRecord } from './infrastructure/persistence/credential.entity';
import {
  DropUsersBalance1767400000100,
  IdentitySchema1767225600100,
  IdentitySessionVersions1767300001515,
  TwoFactorSchema1767500000100,
} from './infrastructure/persistence/identity.migrations';
import { OneTimeTokenRecord } from './infrastructure/persistence/one-time-token.entity';
import { RefreshTokenRecord } from './infrastructure/sessions/refresh-token.entity';
import { UserNoteView } from './projections/user-notes/user-note.entity';
import { UserView } from './projections/users/user-view.entity';

export { IdentityModule } from './identity.module';
export { AdminAccounts } from './infrastructure/accounts/admin-accounts';
export { REFRESH_COOKIE_SCHEMES } from './infrastructure/sessions/sessions';
export { UserReader } from './projections/users/user-reader';
export { UserView } from './projections/users/user-view.entity';
export { UserBalances } from './projections/users/user-balances.port';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const identityEntities: Function[] = [
  UserView,
  UserNoteView,
  CredentialRecord,
  OneTimeTokenRecord,
  RefreshTokenRecord,
];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const identityMigrations: Function[] = [
  IdentitySchema1767225600100,
  IdentitySessionVersions1767300001515,
  DropUsersBalance1767400000100,
  TwoFactorSchema1767500000100,
];
