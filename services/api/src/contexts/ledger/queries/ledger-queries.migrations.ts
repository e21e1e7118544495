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
