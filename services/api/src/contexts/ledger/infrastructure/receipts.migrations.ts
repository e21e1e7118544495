import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receipts (ADR 0097): `receipt_numbers` holds the last number handed out, in one row that the `receipts` processor
 * moves in the transaction that inserts the receipt and its checkpoint, so a number is used exactly when a receipt
 * commits: no gaps, no repeats. `source_event_id` names the event that earned the receipt, so a batch handled twice
 * issues each receipt once.
 */
export class Receipts1770700009700 implements MigrationInterface {
  name = 'Receipts1770700009700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE receipt_numbers (
        only_row boolean PRIMARY KEY DEFAULT true CONSTRAINT receipt_numbers_one_row CHECK (only_row),
        last_number bigint NOT NULL
      )`);
    await runner.query(`INSERT INTO receipt_numbers (only_row, last_number) VALUES (true, 0)`);
    await runner.query(`
      CREATE TABLE receipts (
        number bigint PRIMARY KEY,
        source_event_id uuid NOT NULL CONSTRAINT receipts_one_per_event UNIQUE,
        user_uuid uuid NOT NULL,
        kind text NOT NULL,
        method text NOT NULL,
        payment_id bigint NOT NULL,
        issued_at timestamptz NOT NULL,
        client_name text NOT NULL,
        client_email text NOT NULL,
        profile_id text,
        currency text NOT NULL,
        amount_minor bigint NOT NULL,
        amount_asked_minor bigint,
        list_price_minor bigint,
        discount_minor bigint NOT NULL,
        discount_kind text,
        discount_percent integer NOT NULL,
        promo_code text,
        plan_name text,
        balance_after_minor bigint
      )`);
    await runner.query(`CREATE INDEX receipts_user_number ON receipts (user_uuid, number DESC)`);
    await runner.query(`CREATE INDEX receipts_payment ON receipts (payment_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE receipts');
    await runner.query('DROP TABLE receipt_numbers');
  }
}
