import { DataSource } from 'typeorm';
import { ALL_MIGRATIONS } from '../schema';
import { createMigratedTestDatabase } from './test-database';

/** A fresh test database with every migration applied, for specs of the schema or of one projection without the app. */
export interface MigratedDatabase {
  dataSource: DataSource;
  /** Closes the data source and drops the database. */
  drop(): Promise<void>;
}

export async function createMigratedDatabase(): Promise<MigratedDatabase> {
  const database = await createMigratedTestDatabase();
  const dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: ALL_MIGRATIONS });
  await dataSource.initialize();
  await dataSource.runMigrations();
  return {
    dataSource,
    async drop() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
