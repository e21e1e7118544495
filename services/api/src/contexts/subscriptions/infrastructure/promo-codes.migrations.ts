import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `promo_codes` and `promo_code_uses` (docs/adr/0088-promo-codes.md): each code's terms with its uses and what the
 * payments that used it paid, and each use by its payment, so the console lists codes with uses and revenue and a
 * payment can name the code it used. Both are projections of the `promo-code-{CODE}` streams, new with this table.
 */
export class PromoCodesReadModel1770000008800 implements MigrationInterface {
  name = 'PromoCodesReadModel1770000008800';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE promo_codes (
        code text PRIMARY KEY,
        discount_kind text NOT NULL,
        percent integer,
        amount_minor bigint,
        applies_to text[] NOT NULL,
        plan_ids uuid[],
        valid_from timestamptz,
        valid_until timestamptz,
        max_uses integer,
        max_uses_per_client integer,
        new_clients_only boolean NOT NULL,
        status text NOT NULL,
        uses integer NOT NULL DEFAULT 0,
        revenue_minor bigint NOT NULL DEFAULT 0,
        discount_given_minor bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        disabled_at timestamptz
      )`);
    await runner.query(`
      CREATE TABLE promo_code_uses (
        payment_id bigint PRIMARY KEY,
        code text NOT NULL,
        user_uuid uuid NOT NULL,
        use text NOT NULL,
        subscription_id uuid NOT NULL,
        plan_id uuid NOT NULL,
        list_price_minor bigint NOT NULL,
        discount_minor bigint NOT NULL,
        price_minor bigint NOT NULL,
        redeemed_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX promo_code_uses_code ON promo_code_uses (code, redeemed_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE promo_code_uses`);
    await runner.query(`DROP TABLE promo_codes`);
  }
}

/**
 * `promo_code_reservations` (docs/adr/0088-promo-codes.md, "Card checkout and crypto deposits"): each use a card
 * checkout or a crypto deposit held, by the deposit's payment id, and how it ended (HELD, REDEEMED, RELEASED), so the
 * settlement finds the code to lock before its locks and `kupa ledger verify` compares the holds with the streams.
 */
export class PromoCodeReservations1770000008820 implements MigrationInterface {
  name = 'PromoCodeReservations1770000008820';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE promo_code_reservations (
        deposit_payment_id bigint PRIMARY KEY,
        code text NOT NULL,
        user_uuid uuid NOT NULL,
        use text NOT NULL,
        subscription_id uuid NOT NULL,
        plan_id uuid NOT NULL,
        list_price_minor bigint NOT NULL,
        discount_minor bigint NOT NULL,
        price_minor bigint NOT NULL,
        status text NOT NULL,
        reserved_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ended_at timestamptz,
        payment_id bigint
      )`);
    await runner.query(`CREATE INDEX promo_code_reservations_code ON promo_code_reservations (code, status)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE promo_code_reservations`);
  }
}
