import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A mail is rendered once and sent again as it was (docs/adr/0066-a-re-sent-mail-is-the-same-mail.md): the rendered
 * message, sealed with a key from the configuration because its link carries a one-time token, and when it was
 * rendered (a rendering is sent again only while its link can still work).
 */
export class MailOutboxSealedMessage1768400006600 implements MigrationInterface {
  name = 'MailOutboxSealedMessage1768400006600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE mail_outbox ADD COLUMN sealed_message text, ADD COLUMN rendered_at timestamptz',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE mail_outbox DROP COLUMN sealed_message, DROP COLUMN rendered_at');
  }
}
