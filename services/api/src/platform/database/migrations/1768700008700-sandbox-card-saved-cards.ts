import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the sandbox card keeps to serve saved cards (docs/adr/0087-sandbox-saved-cards.md): customers, setup-mode
 * checkout sessions (with the SetupIntent each completed one made), the cards they saved and the off-session
 * payments made with them, plus the first answer to every idempotency key of these calls, replayed for the same key
 * as Stripe does. In tables, as the sandbox's payment sessions are, so that every API process answers for any record.
 * They imitate Stripe's records, not ours: our books read them only through the Stripe-compatible API.
 */
export class SandboxCardSavedCards1768700008700 implements MigrationInterface {
  name = 'SandboxCardSavedCards1768700008700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE sandbox_card_customers (
        customer_id text PRIMARY KEY,
        email text,
        metadata jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_card_setup_sessions (
        session_id text PRIMARY KEY,
        customer_id text NOT NULL REFERENCES sandbox_card_customers (customer_id),
        status text NOT NULL,
        currency text,
        client_reference_id text,
        metadata jsonb NOT NULL,
        setup_intent text UNIQUE,
        payment_method text,
        success_url text NOT NULL,
        cancel_url text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_card_payment_methods (
        payment_method_id text PRIMARY KEY,
        customer_id text,
        test_card text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_card_payment_intents (
        payment_intent_id text PRIMARY KEY,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE sandbox_card_idempotency (
        idempotency_key text PRIMARY KEY,
        request text NOT NULL,
        status integer NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE sandbox_card_idempotency');
    await runner.query('DROP TABLE sandbox_card_payment_intents');
    await runner.query('DROP TABLE sandbox_card_payment_methods');
    await runner.query('DROP TABLE sandbox_card_setup_sessions');
    await runner.query('DROP TABLE sandbox_card_customers');
  }
}
