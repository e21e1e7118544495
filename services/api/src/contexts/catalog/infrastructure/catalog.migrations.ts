import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalog's read model: one row per package that exists (a deleted package's row goes), kept by the
 * `payment-plans` projection. Names are unique without regard to case, so two packages never look alike in a list;
 * the index is also what refuses the second of two simultaneous creations with one name.
 */
export class CatalogSchema1767600000400 implements MigrationInterface {
  name = 'CatalogSchema1767600000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE payment_plans (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        duration_months smallint NOT NULL,
        price_minor bigint NOT NULL,
        currency text NOT NULL,
        is_recurrent boolean NOT NULL,
        description text NOT NULL,
        features text[] NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE UNIQUE INDEX payment_plans_name_unique ON payment_plans (lower(name))`);
    await runner.query(`CREATE INDEX payment_plans_status_price ON payment_plans (status, price_minor)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE payment_plans`);
  }
}

export const PLAN_NAME_UNIQUE_CONSTRAINT = 'payment_plans_name_unique';

/** Whether a package may be bought by card checkout (docs/adr/0029-card-checkout.md); every older package may. */
export class PlanCardPayment1768100000400 implements MigrationInterface {
  name = 'PlanCardPayment1768100000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payment_plans ADD COLUMN card_payment_allowed boolean NOT NULL DEFAULT true`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payment_plans DROP COLUMN card_payment_allowed`);
  }
}

/**
 * A package's English name and description beside the Hebrew ones
 * (docs/adr/0075-demo-catalogue-and-bilingual-packages.md); every older package has none.
 */
export class PlanEnglishTexts1769900000400 implements MigrationInterface {
  name = 'PlanEnglishTexts1769900000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payment_plans ADD COLUMN name_en text NOT NULL DEFAULT ''`);
    await runner.query(`ALTER TABLE payment_plans ADD COLUMN description_en text NOT NULL DEFAULT ''`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payment_plans DROP COLUMN name_en, DROP COLUMN description_en`);
  }
}
