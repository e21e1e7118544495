import type { DataSource } from 'typeorm';
import { DropRedundantPaymentsCreatedIndex1768300000000 } from './ledger-queries.migrations';
import { createMigratedDatabase, type MigratedDatabase } from '../../../test-support/migrated-database';
import { indexNamesOf, planWithoutSeqScans } from '../../../test-support/query-plans';

/**
 * The payments table keeps one creation-time index, `(created_at, payment_id)`: the single-column one that duplicated
 * it is dropped, and the queries it served (newest first, a month's range for the dashboard) still read an index.
 */
describe('payments indexes', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createMigratedDatabase();
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  const paymentIndexes = () => indexNamesOf(dataSource, 'payments');
  const planOf = (sql: string, parameters: unknown[]) => planWithoutSeqScans(dataSource, sql, parameters);

  it('has no index on the creation time alone, only the one with the payment id', async () => {
    const indexes = await paymentIndexes();
    expect(indexes).toContain('payments_created_id');
    expect(indexes).not.toContain('payments_created');
  });

  it('serves the newest-first page and a month range from the remaining index', async () => {
    const newestFirst = await planOf(
      'SELECT payment_id FROM payments ORDER BY created_at DESC, payment_id DESC LIMIT 20',
      [],
    );
    expect(newestFirst).toMatch(/Index (Only )?Scan Backward using payments_created_id/);
    const monthRange = await planOf(
      'SELECT sum(amount_minor) FROM payments WHERE created_at >= $1 AND created_at < $2',
      ['2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z'],
    );
    expect(monthRange).toMatch(/payments_created_id/);
  });

  it('puts the dropped index back when the migration is undone', async () => {
    // Migrations newer than the one that dropped the index are undone first, down to it.
    for (;;) {
      const [last]: Array<{ name: string }> = await dataSource.query(
        'SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1',
      );
      await dataSource.undoLastMigration();
      if (last.name === DropRedundantPaymentsCreatedIndex1768300000000.name) break;
    }
    try {
      expect(await paymentIndexes()).toContain('payments_created');
    } finally {
      await dataSource.runMigrations();
    }
    expect(await paymentIndexes()).not.toContain('payments_created');
  });
});
