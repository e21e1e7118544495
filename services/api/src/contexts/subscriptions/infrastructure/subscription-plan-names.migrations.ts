import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `subscription_plan_names`: the package each subscription was started with, whether its purchase had a payment or
 * not (a day voucher's start has none, ADR 0089), so that its renewals and refunds in `subscription_payments` name the
 * package. Filled here from the stored purchases; the renewals and refunds that found no name before get it now.
 */
export class SubscriptionPlanNames1770600003220 implements MigrationInterface {
  name = 'SubscriptionPlanNames1770600003220';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE subscription_plan_names (
        subscription_id uuid PRIMARY KEY,
        plan_name text
      )`);
    await runner.query(`
      INSERT INTO subscription_plan_names (subscription_id, plan_name)
        SELECT (data->>'subscriptionId')::uuid, data->>'planName'
          FROM events WHERE type = 'SubscriptionPurchased'
        ON CONFLICT (subscription_id) DO NOTHING`);
    await runner.query(`
      UPDATE subscription_payments s SET plan_name = n.plan_name
        FROM subscription_plan_names n
       WHERE s.plan_name IS NULL AND n.subscription_id = s.subscription_id`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE subscription_plan_names`);
  }
}
