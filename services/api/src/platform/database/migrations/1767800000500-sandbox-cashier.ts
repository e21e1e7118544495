import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox cashier's own tables (docs/adr/0028-crypto-cashier.md): the invoices our server opened on it and the
 * one payment each invoice gets once someone presses a button. They imitate the provider's records, not ours: the
 * ledger knows nothing of them and reads them only through the NOWPayments API the sandbox serves.
 */
export class SandboxCashier1767800000500 implements MigrationInterface {
  name = 'SandboxCashier1767800000500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE sandbox_cashier_invoices (
        invoice_id text PRIMARY KEY,
        order_id text NOT NULL,
        order_description text NOT NULL,
        price_amount_minor bigint NOT NULL,
        pay_currency text NOT NULL,
        pay_amount text NOT NULL,
        ipn_callback_url text NOT NULL,
        success_url text NOT NULL,
        cancel_url text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_cashier_payments (
        payment_id text PRIMARY KEY,
        invoice_id text NOT NULL UNIQUE REFERENCES sandbox_cashier_invoices (invoice_id),
        status text NOT NULL,
        actually_paid text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE sandbox_cashier_payments');
    await runner.query('DROP TABLE sandbox_cashier_invoices');
  }
}
