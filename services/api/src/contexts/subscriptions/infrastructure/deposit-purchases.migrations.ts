import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The purchases deposits pay for get a read model of the subscriptions' own (docs/adr/0068-deposit-purchases-owned-
 * by-subscriptions.md), filled here from the purchase events already stored (all of them on payment streams), and
 * `deposit_purchase_details`, the relation the ledger's payments list joins through its `DepositPurchaseDetails`
 * port: a bought subscription's id shows once it exists, a renewed one's from the start.
 */
export class DepositPurchasesReadModel1768500000300 implements MigrationInterface {
  name = 'DepositPurchasesReadModel1768500000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE deposit_purchases (
        payment_id bigint PRIMARY KEY,
        user_uuid uuid NOT NULL,
        kind text NOT NULL,
        payment_plan_id uuid NOT NULL,
        plan_name text NOT NULL,
        subscription_id uuid NOT NULL,
        login text,
        price_minor bigint NOT NULL,
        status text NOT NULL,
        error_code text,
        subscription_payment_id bigint
      )`);
    await runner.query(
      `CREATE INDEX deposit_purchases_waiting ON deposit_purchases (payment_id) WHERE status = 'WAITING'`,
    );
    await runner.query(`
      INSERT INTO deposit_purchases (payment_id, user_uuid, kind, payment_plan_id, plan_name, subscription_id, login,
                                     price_minor, status)
      SELECT (data->>'paymentId')::bigint, (data->>'userUuid')::uuid, data->>'kind', (data->>'paymentPlanId')::uuid,
             data->>'planName', (data->>'subscriptionId')::uuid, data->>'login', (data->>'priceMinor')::bigint,
             'WAITING'
        FROM events WHERE type = 'DepositPurchaseRequested'`);
    await runner.query(`
      UPDATE deposit_purchases d SET status = 'DONE', subscription_payment_id = (e.data->>'subscriptionPaymentId')::bigint
        FROM events e
       WHERE e.type = 'DepositPurchaseCompleted' AND (e.data->>'paymentId')::bigint = d.payment_id`);
    await runner.query(`
      UPDATE deposit_purchases d SET status = 'FAILED', error_code = e.data->>'errorCode'
        FROM events e
       WHERE e.type = 'DepositPurchaseFailed' AND (e.data->>'paymentId')::bigint = d.payment_id`);
    await runner.query(`
      CREATE VIEW deposit_purchase_details AS
        SELECT payment_id, kind, payment_plan_id, plan_name,
               CASE WHEN kind = 'RENEW' OR status = 'DONE' THEN subscription_id END AS subscription_id,
               status, error_code
          FROM deposit_purchases`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP VIEW deposit_purchase_details`);
    await runner.query(`DROP TABLE deposit_purchases`);
  }
}
