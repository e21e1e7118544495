import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Urgent mails first (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md): a sign-up confirmation, a
 * password reset or a change of e-mail is a person waiting at the screen, and must not queue behind a burst of notices
 * or a broadcast. `priority` 0 is urgent, 1 everything else (every row recorded so far). The due index leads with it,
 * so that the dispatcher's claim (`ORDER BY priority, next_attempt_at, id`) stays a walk of the index rather than a
 * sort of every unsent row.
 */
export class MailOutboxPriority1771000010700 implements MigrationInterface {
  name = 'MailOutboxPriority1771000010700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE mail_outbox ADD COLUMN priority smallint NOT NULL DEFAULT 1 CHECK (priority IN (0, 1))',
    );
    await queryRunner.query('DROP INDEX mail_outbox_due_idx');
    await queryRunner.query(
      'CREATE INDEX mail_outbox_due_idx ON mail_outbox (priority, next_attempt_at, id) WHERE sent_at IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX mail_outbox_due_idx');
    await queryRunner.query(
      'CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL',
    );
    await queryRunner.query('ALTER TABLE mail_outbox DROP COLUMN priority');
  }
}
