import { DataSource } from 'typeorm';
import { ALL_MIGRATIONS } from '../schema';
import { createMigratedTestDatabase, createTestDatabase, refuseConnections, type TestDatabase } from './test-database';

/** A fresh test database with every migration applied, for specs of the schema or of one projection without the app. */
export interface MigratedDatabase {
  dataSource: DataSource;
  /** Closes the data source and drops the database. */
  drop(): Promise<void>;
}

/** Every migration on `database`, as the app's start runs them (one transaction each). */
async function migrated(database: TestDatabase): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: ALL_MIGRATIONS });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}

export async function createMigratedDatabase(): Promise<MigratedDatabase> {
  const database = await createMigratedTestDatabase();
  const dataSource = await migrated(database);
  return {
    dataSource,
    async drop() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/**
 * The run's migrated template (docs/adr/0140), made once by the global setup: an empty database with every migration,
 * closed to connections. Spec apps and migrated databases are copies of it (`createMigratedTestDatabase`).
 */
export async function createMigratedTemplate(): Promise<TestDatabase> {
  const template = await createTestDatabase();
  await (await migrated(template)).destroy();
  await refuseConnections(template);
  return template;
}
