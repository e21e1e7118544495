import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mail outbox: every e-mail the product sends is first a row here, written by a processor in the same
 * transaction that moves its checkpoint, then sent by the mail dispatcher. `dedupe_key` (the causing event) makes
 * one event one mail; `sent_at` stays null until SMTP accepted it, and `next_attempt_at` spaces out retries.
 */
export class MailOutbox1767300000000 implements MigrationInterface {
  name = 'MailOutbox1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mail_outbox (
        id bigserial PRIMARY KEY,
        dedupe_key text NOT NULL UNIQUE,
        kind text NOT NULL,
        recipient text NOT NULL,
        language text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        sent_at timestamptz,
        skipped boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(
      'CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE mail_outbox');
  }
}
