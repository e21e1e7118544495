import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client's notifications (ADR 0083). Not a read model of the event store: the reminder sweep and the
 * subscription mails write a row in the transaction that queues the mail, under the same occasion key, which is
 * unique, so an occasion is told once however many passes see it.
 */
export class ClientNotifications1770000008300 implements MigrationInterface {
  name = 'ClientNotifications1770000008300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE client_notifications (
        id uuid PRIMARY KEY,
        occasion_key text NOT NULL UNIQUE,
        user_uuid uuid NOT NULL,
        kind text NOT NULL,
        params jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        read_at timestamptz
      )`);
    // A client's list, newest first, and the unread count beside it.
    await runner.query(
      `CREATE INDEX client_notifications_user ON client_notifications (user_uuid, created_at DESC, id DESC)`,
    );
    await runner.query(
      `CREATE INDEX client_notifications_unread ON client_notifications (user_uuid) WHERE read_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE client_notifications');
  }
}
