import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox card's checkout sessions (docs/adr/0080-sandbox-card-checkout.md): the sessions our card adapter
 * opened on it, in a table rather than in memory so that every API process (`WEB_CONCURRENCY`) answers for every
 * session. They imitate Stripe's records, not ours: the ledger knows nothing of them and reads them only through the
 * Stripe-compatible API the sandbox serves. The idempotency key makes a retried create the same session, as Stripe's
 * does.
 */
export class SandboxCard1768400008000 implements MigrationInterface {
  name = 'SandboxCard1768400008000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE sandbox_card_sessions (
        session_id text PRIMARY KEY,
        idempotency_key text UNIQUE,
        status text NOT NULL,
        payment_status text NOT NULL,
        amount_total_minor bigint NOT NULL,
        currency text NOT NULL,
        product_name text NOT NULL,
        client_reference_id text,
        customer_email text,
        metadata jsonb NOT NULL,
        payment_intent text,
        success_url text NOT NULL,
        cancel_url text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE sandbox_card_sessions');
  }
}
