import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `subscription_payments` (docs/adr/0077-details-people-can-read.md): the subscription each balance payment bought or
 * renewed, or each refund gave back, with the package's name as bought, filled here from the events already stored.
 */
export class SubscriptionPaymentsReadModel1768500007700 implements MigrationInterface {
  name = 'SubscriptionPaymentsReadModel1768500007700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE subscription_payments (
        payment_id bigint PRIMARY KEY,
        subscription_id uuid NOT NULL,
        plan_name text
      )`);
    await runner.query(`CREATE INDEX subscription_payments_subscription ON subscription_payments (subscription_id)`);
    await runner.query(`
      INSERT INTO subscription_payments (payment_id, subscription_id, plan_name)
        SELECT (data->>'paymentId')::bigint, (data->>'subscriptionId')::uuid, data->>'planName'
          FROM events WHERE type = 'SubscriptionPurchased' AND data->>'paymentId' IS NOT NULL`);
    await runner.query(`
      INSERT INTO subscription_payments (payment_id, subscription_id, plan_name)
        SELECT (e.data->>e.payment_field)::bigint, (e.data->>'subscriptionId')::uuid,
               (SELECT plan_name FROM subscription_payments s
                 WHERE s.subscription_id = (e.data->>'subscriptionId')::uuid ORDER BY s.payment_id LIMIT 1)
          FROM (SELECT data, CASE type WHEN 'SubscriptionRenewed' THEN 'paymentId' ELSE 'refundPaymentId' END
                       AS payment_field
                  FROM events WHERE type IN ('SubscriptionRenewed', 'SubscriptionProvisioningFailed')) e
         WHERE e.data->>e.payment_field IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE subscription_payments`);
  }
}
