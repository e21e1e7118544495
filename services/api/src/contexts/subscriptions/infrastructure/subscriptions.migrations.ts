import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The subscriptions read model: one row per subscription, kept inline by the subscriptions projection so that a
 * purchase reads its own write. Other contexts read it through the subscriptions context's index: the catalog asks
 * whether a package is referenced, the referrals context counts a referrer's referred users holding an ACTIVE
 * subscription, the dashboard counts. The login is unique among subscriptions that still hold an account at the
 * streaming service (every status but EXPIRED and CANCELED), whatever its case, which also refuses the second of two
 * simultaneous purchases with one login.
 */
export class SubscriptionsSchema1767700000000 implements MigrationInterface {
  name = 'SubscriptionsSchema1767700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY,
        user_uuid uuid NOT NULL,
        user_email text NOT NULL,
        plan_id uuid,
        plan_name text,
        price_minor bigint NOT NULL,
        currency text NOT NULL,
        status text NOT NULL,
        type text NOT NULL,
        duration_in_month smallint NOT NULL,
        is_recurrent boolean NOT NULL,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        next_payment_date timestamptz,
        login text NOT NULL,
        start_date timestamptz,
        end_date timestamptz,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL
      )`);
    await runner.query(`CREATE INDEX subscriptions_user_created ON subscriptions (user_uuid, created_at DESC)`);
    await runner.query(`CREATE INDEX subscriptions_plan ON subscriptions (plan_id) WHERE plan_id IS NOT NULL`);
    await runner.query(`CREATE INDEX subscriptions_status_end ON subscriptions (status, end_date)`);
    await runner.query(
      `CREATE INDEX subscriptions_next_payment ON subscriptions (next_payment_date) WHERE next_payment_date IS NOT NULL`,
    );
    await runner.query(`CREATE INDEX subscriptions_created ON subscriptions (created_at DESC, id)`);
    await runner.query(
      `CREATE UNIQUE INDEX subscriptions_login_held ON subscriptions (lower(login)) WHERE status NOT IN ('EXPIRED', 'CANCELED')`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE subscriptions`);
  }
}

export const SUBSCRIPTION_LOGIN_HELD_CONSTRAINT = 'subscriptions_login_held';

/**
 * What the subscriptions projection keeps beside the first table: the price before the referral discount and the
 * percent (the console shows both), and whether the automatic renewal was switched off (an UNSUBSCRIBED subscription
 * that had not started yet becomes UNSUBSCRIBED, not ACTIVE, when it starts). And `subscription_secrets`: the
 * streaming-service passwords, which never enter an event (docs/adr/0024-subscriptions.md). Each row is written in
 * the transaction of the event that explains it and keyed by that event's stream version, so provisioning applies the
 * newest one; it deletes what it applied.
 */
export class SubscriptionsDetailsAndSecrets1767700000100 implements MigrationInterface {
  name = 'SubscriptionsDetailsAndSecrets1767700000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE subscriptions
        ADD COLUMN list_price_minor bigint NOT NULL DEFAULT 0,
        ADD COLUMN discount_percent smallint NOT NULL DEFAULT 0,
        ADD COLUMN recurrence_deactivated boolean NOT NULL DEFAULT false`);
    await runner.query(`
      CREATE TABLE subscription_secrets (
        subscription_id uuid NOT NULL,
        version integer NOT NULL,
        password text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (subscription_id, version)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE subscription_secrets`);
    await runner.query(
      `ALTER TABLE subscriptions DROP COLUMN recurrence_deactivated, DROP COLUMN discount_percent, DROP COLUMN list_price_minor`,
    );
  }
}

/**
 * Streaming-service passwords are kept sealed (`SubscriptionSecrets`): new rows fill `password_sealed` and leave
 * `password` empty. Rows written before hold their password in `password` until provisioning applies and deletes
 * them; the check keeps every row to exactly one of the two.
 */
export class SubscriptionSecretsSealed1768200000000 implements MigrationInterface {
  name = 'SubscriptionSecretsSealed1768200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE subscription_secrets
        ADD COLUMN password_sealed text,
        ALTER COLUMN password DROP NOT NULL,
        ADD CONSTRAINT subscription_secrets_one_password CHECK ((password IS NULL) <> (password_sealed IS NULL))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    // Sealed passwords cannot be turned back into plain ones here: those rows are dropped, to be set again.
    await runner.query(`DELETE FROM subscription_secrets WHERE password IS NULL`);
    await runner.query(`
      ALTER TABLE subscription_secrets
        DROP CONSTRAINT subscription_secrets_one_password,
        ALTER COLUMN password SET NOT NULL,
        DROP COLUMN password_sealed`);
  }
}

/**
 * The grace window (ADR 0081): a recurrent subscription whose renewal could not be paid is GRACE after its end date
 * until `grace_ends_at`, when it ends EXPIRED unless renewed. The sweep finds the windows that closed by this column;
 * GRACE holds its login like every status but EXPIRED and CANCELED, so the login index needs no change.
 */
export class SubscriptionsGraceWindow1769900008100 implements MigrationInterface {
  name = 'SubscriptionsGraceWindow1769900008100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions ADD COLUMN grace_ends_at timestamptz`);
    await runner.query(
      `CREATE INDEX subscriptions_grace_ends ON subscriptions (grace_ends_at) WHERE grace_ends_at IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions DROP COLUMN grace_ends_at`);
  }
}

/**
 * How each subscription's automatic renewal is paid (docs/adr/0085-saved-cards.md): the balance, the balance and then
 * the saved card, or the card only. Every subscription stored before paid from the balance.
 */
export class SubscriptionRenewalFunding1768700008500 implements MigrationInterface {
  name = 'SubscriptionRenewalFunding1768700008500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions ADD COLUMN renewal_funding text NOT NULL DEFAULT 'BALANCE'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions DROP COLUMN renewal_funding`);
  }
}

/**
 * Since when a subscription has a card renewal attempt without an outcome (docs/adr/0086-renewals-charged-to-the-saved-
 * card.md): what the renewal sweep's janitor looks for to read a pending PaymentIntent back when its webhook was lost.
 */
export class SubscriptionCardRenewalOpen1768700008600 implements MigrationInterface {
  name = 'SubscriptionCardRenewalOpen1768700008600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions ADD COLUMN card_renewal_open_since timestamptz`);
    await runner.query(
      `CREATE INDEX subscriptions_card_renewal_open ON subscriptions (card_renewal_open_since)
        WHERE card_renewal_open_since IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE subscriptions DROP COLUMN card_renewal_open_since`);
  }
}
