import { auditMigrations } from './contexts/audit';
import { identityEntities, identityMigrations } from './contexts/identity';
import { ledgerMigrations } from './contexts/ledger';
import { platformMigrations } from './platform/database/migrations';

/**
 * Every TypeORM entity and migration of the app, listed explicitly (no globs) so that the server, the CLI and the
 * tests load exactly the same schema whether they run compiled JavaScript or TypeScript source.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ALL_ENTITIES: Function[] = [...identityEntities];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ALL_MIGRATIONS: Function[] = [
  ...platformMigrations,
  ...identityMigrations,
  ...ledgerMigrations,
  ...auditMigrations,
];
