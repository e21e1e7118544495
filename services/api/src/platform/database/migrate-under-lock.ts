import type { DataSource } from 'typeorm';

/** Key of the advisory lock migrations run under (ASCII "KUPM"); apart from the processors' lock namespace. */
export const MIGRATION_LOCK_KEY = 0x4b55504d;

/**
 * Runs the pending migrations while holding a session advisory lock, so that processes starting at once on one
 * database (API replicas, workers, the command line) apply each migration once: the others wait, then find nothing
 * left to run (docs/adr/0036-processes-and-roles.md).
 */
export async function migrateUnderLock(dataSource: DataSource): Promise<DataSource> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lock.release();
  }
  return dataSource;
}
