import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the payments search needs at a million rows (docs/benchmarks.md), on top of the ledger's read models:
 *
 * - a trigram GIN index on `search_text`, so that a `keyWord` (a `LIKE '%…%'` match) does not read every row. It
 *   needs the `pg_trgm` extension, which ships with PostgreSQL's contrib package and is trusted (any database owner
 *   may create it). Where it is missing or may not be created, the migration goes on without it and keyword
 *   searches fall back to scanning in date order, which is correct, only slower;
 * - `(created_at, payment_id)` so that the default order (newest first, id as tie-breaker) is one index scan in
 *   either direction;
 * - `(amount_minor, created_at, payment_id)` and `(user_email, created_at, payment_id)` for the two sorts whose
 *   groups are small enough for an incremental sort to stop after one page.
 */
export class LedgerQueryIndexes1767225601900 implements MigrationInterface {
  name = 'LedgerQueryIndexes1767225601900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
          BEGIN
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
          EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'pg_trgm may not be created here: keyword searches scan instead of using an index';
          END;
        END IF;
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          EXECUTE 'CREATE INDEX payments_search_text_trgm ON payments USING gin (search_text gin_trgm_ops)';
        END IF;
      END
      $$`);
    await runner.query(`CREATE INDEX payments_created_id ON payments (created_at, payment_id)`);
    await runner.query(`CREATE INDEX payments_amount_created ON payments (amount_minor, created_at, payment_id)`);
    await runner.query(`CREATE INDEX payments_email_created ON payments (user_email, created_at, payment_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS payments_email_created`);
    await runner.query(`DROP INDEX IF EXISTS payments_amount_created`);
    await runner.query(`DROP INDEX IF EXISTS payments_created_id`);
    await runner.query(`DROP INDEX IF EXISTS payments_search_text_trgm`);
  }
}

/**
 * The enumerated sorts (status, type, method, aggregator) order a million rows by a column of a handful of values,
 * newest first within each value: only an index in exactly that order lets a page stop after its rows. These
 * replace the single-column indexes, whose leading column they share, so filters keep their index and each payment
 * still updates four of them.
 */
export class PaymentEnumSortIndexes1767225602000 implements MigrationInterface {
  name = 'PaymentEnumSortIndexes1767225602000';

  async up(runner: QueryRunner): Promise<void> {
    for (const column of ENUM_SORT_COLUMNS) {
      await runner.query(
        `CREATE INDEX payments_${column}_created ON payments (${column}, created_at DESC, payment_id DESC)`,
      );
      await runner.query(`DROP INDEX IF EXISTS payments_${column}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const column of ENUM_SORT_COLUMNS) {
      await runner.query(`CREATE INDEX payments_${column} ON payments (${column})`);
      await runner.query(`DROP INDEX IF EXISTS payments_${column}_created`);
    }
  }
}

const ENUM_SORT_COLUMNS = ['status', 'type', 'method', 'aggregator'] as const;

/**
 * `payments_created (created_at DESC)` duplicates the leading column of `payments_created_id (created_at,
 * payment_id)`, which PostgreSQL scans in either direction, so every query it served (the default order, the
 * dashboard's month range) keeps an index. Each payment row written updated both: two of the sixty B-tree
 * insertions of a transfer in the bench's soak were for nothing (docs/benchmarks.md, the WAL of one transfer).
 */
export class DropRedundantPaymentsCreatedIndex1768300000000 implements MigrationInterface {
  name = 'DropRedundantPaymentsCreatedIndex1768300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS payments_created`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX IF NOT EXISTS payments_created ON payments (created_at DESC)`);
  }
}
