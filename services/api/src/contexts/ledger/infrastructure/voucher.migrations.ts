import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prepaid vouchers (docs/adr/0089-prepaid-vouchers.md). `voucher_batches` and `voucher_redemptions` are read models of
 * the batch streams (checked by `kupa ledger verify` against a replay); `voucher_codes` is a side table written with a
 * batch's generation: each code's SHA-256 (how a redemption finds it) and the code sealed under the server's key (how
 * staff export it again). A copy of the database alone redeems nothing.
 */
export class VoucherTables1770100008900 implements MigrationInterface {
  name = 'VoucherTables1770100008900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE voucher_batches (
      id uuid PRIMARY KEY,
      label text NOT NULL,
      count integer NOT NULL CHECK (count > 0),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      funding text CHECK (funding IN ('SOLD', 'GIVEN_AWAY')),
      funded_at timestamptz,
      funding_comment text,
      redeemed_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      created_by text
    )`);
    await runner.query(`CREATE TABLE voucher_redemptions (
      batch_id uuid NOT NULL,
      code_index integer NOT NULL,
      user_uuid uuid NOT NULL,
      payment_id bigint NOT NULL,
      redeemed_at timestamptz NOT NULL,
      PRIMARY KEY (batch_id, code_index)
    )`);
    await runner.query(`CREATE TABLE voucher_codes (
      code_hash text PRIMARY KEY,
      batch_id uuid NOT NULL,
      code_index integer NOT NULL,
      sealed_code text NOT NULL,
      UNIQUE (batch_id, code_index)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE voucher_codes, voucher_redemptions, voucher_batches');
  }
}

/**
 * Day vouchers (ADR 0089): a batch's kind and, for DAYS, its days and package; a DAYS code's redemption has no
 * payment but the subscription it extended.
 */
export class DayVoucherColumns1770400009300 implements MigrationInterface {
  name = 'DayVoucherColumns1770400009300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE voucher_batches
      ADD COLUMN kind text NOT NULL DEFAULT 'MONEY' CHECK (kind IN ('MONEY', 'DAYS')),
      ADD COLUMN days integer,
      ADD COLUMN plan_id uuid,
      ADD COLUMN plan_name text,
      DROP CONSTRAINT voucher_batches_amount_minor_check,
      ADD CONSTRAINT voucher_batches_amount_minor_check CHECK (amount_minor > 0 OR kind = 'DAYS')`);
    await runner.query(`ALTER TABLE voucher_redemptions
      ALTER COLUMN payment_id DROP NOT NULL,
      ADD COLUMN subscription_id uuid`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM voucher_redemptions WHERE payment_id IS NULL`);
    await runner.query(`ALTER TABLE voucher_redemptions DROP COLUMN subscription_id,
      ALTER COLUMN payment_id SET NOT NULL`);
    await runner.query(`DELETE FROM voucher_batches WHERE kind = 'DAYS'`);
    await runner.query(`ALTER TABLE voucher_batches DROP CONSTRAINT voucher_batches_amount_minor_check,
      ADD CONSTRAINT voucher_batches_amount_minor_check CHECK (amount_minor > 0),
      DROP COLUMN kind, DROP COLUMN days, DROP COLUMN plan_id, DROP COLUMN plan_name`);
  }
}
