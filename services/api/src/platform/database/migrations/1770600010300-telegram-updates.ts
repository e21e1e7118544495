import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Telegram updates handled (docs/adr/0103-telegram-channel.md): one row per update id, claimed before it is
 * handled, so a webhook Telegram repeats or a poll that overlaps is handled once; the largest id is the offset the
 * next `getUpdates` asks from.
 */
export class TelegramUpdates1770600010300 implements MigrationInterface {
  name = 'TelegramUpdates1770600010300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE telegram_updates (
        update_id bigint PRIMARY KEY,
        received_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE telegram_updates');
  }
}
