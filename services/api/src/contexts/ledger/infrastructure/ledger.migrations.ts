import { PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIdempotencyKeysTable, dropIdempotencyKeysTable } from '../../../platform/idempotency';

/**
 * The ledger's read models (payments, ledger entries, user account balances), its wallet snapshots, the payment id
 * sequence and the idempotency keys of money-moving requests (ADR 0006).
 */
export class LedgerSchema1767225600300 implements MigrationInterface {
  name = 'LedgerSchema1767225600300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE SEQUENCE payment_id_seq AS bigint START WITH 1 MINVALUE 1`);
    await runner.query(`
      CREATE TABLE payments (
        payment_id bigint PRIMARY KEY,
        user_uuid uuid NOT NULL,
        user_email text NOT NULL,
        amount_minor bigint NOT NULL CONSTRAINT payments_amount_positive CHECK (amount_minor > 0),
        currency text NOT NULL,
        status text NOT NULL,
        method text NOT NULL,
        type text NOT NULL,
        aggregator text NOT NULL,
        comment text,
        counter_account text NOT NULL,
        correction boolean NOT NULL DEFAULT false,
        sender_profile_id char(8),
        recipient_profile_id char(8),
        transfer_id uuid,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL,
        search_text text NOT NULL
      )`);
    await runner.query(`CREATE INDEX payments_user_created ON payments (user_uuid, created_at DESC)`);
    await runner.query(`CREATE INDEX payments_created ON payments (created_at DESC)`);
    await runner.query(`CREATE INDEX payments_status ON payments (status)`);
    await runner.query(`CREATE INDEX payments_type ON payments (type)`);
    await runner.query(`CREATE INDEX payments_method ON payments (method)`);
    await runner.query(`CREATE INDEX payments_aggregator ON payments (aggregator)`);
    await runner.query(`CREATE INDEX payments_transfer ON payments (transfer_id) WHERE transfer_id IS NOT NULL`);
    await runner.query(`
      CREATE TABLE ledger_entries (
        entry_id bigserial PRIMARY KEY,
        transaction_id uuid NOT NULL,
        posting_index smallint NOT NULL,
        account text NOT NULL,
        counter_account text NOT NULL,
        amount_minor bigint NOT NULL CONSTRAINT ledger_entries_amount_nonzero CHECK (amount_minor <> 0),
        balance_after_minor bigint,
        payment_id bigint,
        event_type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        global_position bigint NOT NULL,
        CONSTRAINT ledger_entries_booked_once UNIQUE (transaction_id, posting_index, account),
        CONSTRAINT ledger_entries_running_balance_users_only
          CHECK ((account LIKE 'user:%') = (balance_after_minor IS NOT NULL))
      )`);
    await runner.query(`CREATE INDEX ledger_entries_account_time ON ledger_entries (account, occurred_at, entry_id)`);
    await runner.query(
      `CREATE INDEX ledger_entries_payment ON ledger_entries (payment_id) WHERE payment_id IS NOT NULL`,
    );
    await runner.query(`
      CREATE TABLE account_balances (
        account text PRIMARY KEY CONSTRAINT account_balances_users_only CHECK (account LIKE 'user:%'),
        balance_minor bigint NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE wallet_snapshots (
        stream_id text PRIMARY KEY,
        version integer NOT NULL,
        state jsonb NOT NULL
      )`);
    // The keys table is the platform's now (ADR 0069); this migration, recorded as run under its name by every
    // existing database and backup, still creates it.
    await createIdempotencyKeysTable(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropIdempotencyKeysTable(runner);
    await runner.query(`DROP TABLE wallet_snapshots`);
    await runner.query(`DROP TABLE account_balances`);
    await runner.query(`DROP TABLE ledger_entries`);
    await runner.query(`DROP TABLE payments`);
    await runner.query(`DROP SEQUENCE payment_id_seq`);
  }
}

/**
 * The one relation the ledger publishes to another context (ADR 0013): users' balances, `(user_uuid, balance_minor)`,
 * over `account_balances`, which holds user accounts only. Identity's users search joins it to sort by balance,
 * through the `UserBalances` port; nothing writes through it, and the ledger may change its tables behind it.
 */
export class LedgerUserBalancesView1767400000300 implements MigrationInterface {
  name = 'LedgerUserBalancesView1767400000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE VIEW ledger_user_balances AS
        SELECT substr(account, length('user:') + 1)::uuid AS user_uuid, balance_minor FROM account_balances`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP VIEW ledger_user_balances`);
  }
}

/**
 * What a payment shows its owner apart from staff (docs/product.md, Ledger, What a client sees): the note staff chose
 * to tell the client, and the authors as the owner sees them (their own e-mail, a transfer sender's profile ID, or
 * Kupa for staff and the system). Rows written before this migration get authors from what the row itself says; the
 * payments projection's rebuild (`npx kupa projections rebuild payments`) derives them from the events' actors.
 */
export class PaymentPublicFields1767600000300 implements MigrationInterface {
  name = 'PaymentPublicFields1767600000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE payments
        ADD COLUMN public_note text,
        ADD COLUMN created_by_public text,
        ADD COLUMN updated_by_public text`);
    for (const [target, author] of [
      ['created_by_public', 'created_by'],
      ['updated_by_public', 'updated_by'],
    ]) {
      await runner.query(`
        UPDATE payments SET ${target} = CASE
          WHEN ${author} = user_email THEN ${author}
          WHEN type = 'TRANSFER_IN' AND sender_profile_id IS NOT NULL THEN sender_profile_id::text
          ELSE '${PUBLIC_STAFF_ACTOR_NAME}' END`);
    }
    await runner.query(`
      ALTER TABLE payments
        ALTER COLUMN created_by_public SET NOT NULL,
        ALTER COLUMN updated_by_public SET NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE payments DROP COLUMN updated_by_public, DROP COLUMN created_by_public, DROP COLUMN public_note`,
    );
  }
}

/**
 * An ambassador bonus and the deposit that earned it name each other (docs/product.md, Referrals and bonuses):
 * `bonus_payment_id` on the deposit, `bonus_for_payment_id` on the AMBASSADOR_BONUS payment. Rows written before
 * bonuses existed have neither, which is what their events say.
 */
export class PaymentBonusLinks1767800000300 implements MigrationInterface {
  name = 'PaymentBonusLinks1767800000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE payments ADD COLUMN bonus_payment_id bigint, ADD COLUMN bonus_for_payment_id bigint`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments DROP COLUMN bonus_for_payment_id, DROP COLUMN bonus_payment_id`);
  }
}

/**
 * The crypto cashier's side of a deposit (docs/adr/0028-crypto-cashier.md): the provider and its invoice, the
 * provider payment and status reported last, and the amounts asked and received. Null on every other payment. The
 * partial index serves the janitor, which looks for PENDING cashier deposits that have waited too long.
 */
export class CashierPaymentFields1767900000300 implements MigrationInterface {
  name = 'CashierPaymentFields1767900000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE payments
        ADD COLUMN cashier_provider text,
        ADD COLUMN cashier_invoice_id text,
        ADD COLUMN cashier_invoice_url text,
        ADD COLUMN cashier_pay_currency text,
        ADD COLUMN provider_payment_id text,
        ADD COLUMN provider_status text,
        ADD COLUMN amount_asked_minor bigint,
        ADD COLUMN amount_received_minor bigint`);
    await runner.query(
      `CREATE INDEX payments_cashier_pending ON payments (created_at, payment_id)
        WHERE aggregator = 'CASHIER' AND status = 'PENDING'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX payments_cashier_pending`);
    await runner.query(`
      ALTER TABLE payments
        DROP COLUMN amount_received_minor, DROP COLUMN amount_asked_minor, DROP COLUMN provider_status,
        DROP COLUMN provider_payment_id, DROP COLUMN cashier_pay_currency, DROP COLUMN cashier_invoice_url,
        DROP COLUMN cashier_invoice_id, DROP COLUMN cashier_provider`);
  }
}

/**
 * The referral discount a subscription payment got, in percent (docs/product.md, Referrals): 0 for every payment
 * before subscriptions, which is what their events say once upcast (`PaymentRecorded` schema version 3).
 */
export class PaymentDiscountPercent1767800000400 implements MigrationInterface {
  name = 'PaymentDiscountPercent1767800000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments ADD COLUMN discount_percent smallint NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments DROP COLUMN discount_percent`);
  }
}

/** The columns of what a deposit bought: added in 1768000000300, dropped in 1768500000400 (ADR 0068). */
async function addPurchaseColumns(runner: QueryRunner): Promise<void> {
  await runner.query(`
      ALTER TABLE payments
        ADD COLUMN purchase_kind text,
        ADD COLUMN purchase_plan_id uuid,
        ADD COLUMN purchase_plan_name text,
        ADD COLUMN purchase_subscription_id uuid,
        ADD COLUMN purchase_status text,
        ADD COLUMN purchase_error_code text`);
  await runner.query(
    `CREATE INDEX payments_purchase_waiting ON payments (payment_id) WHERE purchase_status = 'WAITING'`,
  );
}

async function dropPurchaseColumns(runner: QueryRunner): Promise<void> {
  await runner.query(`DROP INDEX payments_purchase_waiting`);
  await runner.query(`
      ALTER TABLE payments
        DROP COLUMN purchase_error_code, DROP COLUMN purchase_status, DROP COLUMN purchase_subscription_id,
        DROP COLUMN purchase_plan_name, DROP COLUMN purchase_plan_id, DROP COLUMN purchase_kind`);
}

/**
 * What a crypto deposit pays for beyond the balance (docs/adr/0030-deposit-and-buy.md): the purchase or renewal that
 * follows once the money arrives, and how it went. Null on every other payment, which is what their events say.
 */
export class DepositPurchaseFields1768000000300 implements MigrationInterface {
  name = 'DepositPurchaseFields1768000000300';

  async up(runner: QueryRunner): Promise<void> {
    await addPurchaseColumns(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropPurchaseColumns(runner);
  }
}

/**
 * Card deposits (docs/adr/0029-card-checkout.md): the provider and its checkout session. The provider payment, its
 * status and the amounts asked and received share the crypto cashier's columns.
 */
/**
 * What a provider reported for a payment it put in `REVIEW` (docs/adr/0058-money-paths-keep-their-promises.md): a
 * paid checkout's currency and total when they were not what was asked, so staff see it in the payments list.
 */
export class PaymentReviewFields1768400000300 implements MigrationInterface {
  name = 'PaymentReviewFields1768400000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments ADD COLUMN review_currency text, ADD COLUMN review_amount_minor bigint`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments DROP COLUMN review_amount_minor, DROP COLUMN review_currency`);
  }
}

export class CardPaymentFields1768100000300 implements MigrationInterface {
  name = 'CardPaymentFields1768100000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments ADD COLUMN card_provider text, ADD COLUMN card_checkout_session_id text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments DROP COLUMN card_checkout_session_id, DROP COLUMN card_provider`);
  }
}

/**
 * What a deposit buys is no longer the ledger's to show (docs/adr/0068-deposit-purchases-owned-by-subscriptions.md):
 * the subscriptions' `deposit_purchases`, filled by their migration just before this one, holds it now.
 */
export class PaymentPurchaseColumnsDropped1768500000400 implements MigrationInterface {
  name = 'PaymentPurchaseColumnsDropped1768500000400';

  async up(runner: QueryRunner): Promise<void> {
    await dropPurchaseColumns(runner);
  }

  async down(runner: QueryRunner): Promise<void> {
    await addPurchaseColumns(runner);
  }
}

/**
 * The users search joins `ledger_user_balances` by user uuid, which the view computes from `account`: without an index
 * on that expression every search that sorts by balance reads all of `account_balances` (ADR 0078). With it a keyword
 * or filter that narrows the users looks up each one's balance by index.
 */
export class LedgerUserBalancesByUser1768600007800 implements MigrationInterface {
  name = 'LedgerUserBalancesByUser1768600007800';

  async up(runner: QueryRunner): Promise<void> {
    // The expression is the view's, so the planner matches the index to the view's column.
    await runner.query(
      `CREATE INDEX account_balances_user_uuid ON account_balances ((substr(account, length('user:') + 1)::uuid))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX account_balances_user_uuid`);
  }
}

/** The REFUND that gave a subscription payment back to the balance (ADR 0092): set once, by `PaymentRefundedToBalance`. */
export class PaymentRefundedBy1770300009200 implements MigrationInterface {
  name = 'PaymentRefundedBy1770300009200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments ADD COLUMN refunded_by_payment_id bigint`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE payments DROP COLUMN refunded_by_payment_id`);
  }
}

/**
 * Large deposits marked seen (docs/product.md, Dashboard): one row per deposit, written with its
 * `LargeDepositAcknowledged`; the dashboard's queue leaves these out.
 */
export class LargeDepositAcknowledgements1770500009120 implements MigrationInterface {
  name = 'LargeDepositAcknowledgements1770500009120';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE large_deposit_acknowledgements (
        payment_id bigint PRIMARY KEY,
        acknowledged_by uuid NOT NULL,
        acknowledged_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE large_deposit_acknowledgements');
  }
}

/**
 * Manual-transfer claims (docs/adr/0112-manual-transfer-claims.md): one row per claim, kept by the
 * `deposit-claims` inline projection; the open ones first for staff, a client's own newest first.
 */
export class DepositClaims1771100011200 implements MigrationInterface {
  name = 'DepositClaims1771100011200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE deposit_claims (
        claim_id uuid PRIMARY KEY,
        user_uuid uuid NOT NULL,
        amount_minor bigint NOT NULL,
        currency text NOT NULL,
        reference text NOT NULL,
        note text,
        status text NOT NULL,
        payment_id bigint,
        reason_text text,
        claimed_at timestamptz NOT NULL,
        closed_at timestamptz
      )`);
    await runner.query('CREATE INDEX deposit_claims_user_idx ON deposit_claims (user_uuid, claimed_at DESC)');
    await runner.query('CREATE INDEX deposit_claims_status_idx ON deposit_claims (status, claimed_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE deposit_claims');
  }
}

/**
 * Drops `ledger_entries_payment`: its one reader, the receipt of a purchase, finds its charge by the account's time
 * index, and every entry with a payment (two a transfer) wrote to it (docs/adr/0129).
 */
export class LedgerEntriesByPaymentDropped1772400012900 implements MigrationInterface {
  name = 'LedgerEntriesByPaymentDropped1772400012900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS ledger_entries_payment');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE INDEX IF NOT EXISTS ledger_entries_payment ON ledger_entries (payment_id) WHERE payment_id IS NOT NULL',
    );
  }
}
