import { auditMigrations } from './contexts/audit';
import { catalogMigrations } from './contexts/catalog';
import { identityMigrations } from './contexts/identity';
import { ledgerMigrations } from './contexts/ledger';
import { notificationsMigrations } from './contexts/notifications';
import { operationsMigrations } from './contexts/operations';
import { ProvisioningSchema1767800000000, subscriptionsMigrations } from './contexts/subscriptions';
import { LedgerVerifyCheckpoints1771100011100, LedgerVerifyStateBuckets1772200012200 } from './operations/verify';
import { platformMigrations } from './platform/database/migrations';

/**
 * Every migration of the app, listed explicitly (no globs) so that the server, the CLI and the tests load exactly the
 * same schema whether they run compiled JavaScript or TypeScript source. The migrations are the one definition of the
 * tables, which are reached through SQL (docs/adr/0016-tables-through-sql.md), so there are no entities to list.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ALL_MIGRATIONS: Function[] = [
  ...platformMigrations,
  ...identityMigrations,
  ...ledgerMigrations,
  ...auditMigrations,
  ...catalogMigrations,
  ...subscriptionsMigrations,
  ProvisioningSchema1767800000000,
  ...notificationsMigrations,
  ...operationsMigrations,
  LedgerVerifyCheckpoints1771100011100,
  LedgerVerifyStateBuckets1772200012200,
];
