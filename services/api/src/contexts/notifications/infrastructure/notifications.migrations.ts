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

/**
 * Broadcasts (ADR 0091): the admin's message, its recipients frozen when it was sent (one row each, keyed by
 * broadcast and user, so a hand-off repeated after a crash finds its row already handed), and the clients who
 * switched announcements off.
 */
export class Broadcasts1770000009100 implements MigrationInterface {
  name = 'Broadcasts1770000009100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE broadcasts (
        id uuid PRIMARY KEY,
        subject_he text NOT NULL,
        body_he text NOT NULL,
        subject_en text NOT NULL,
        body_en text NOT NULL,
        filter jsonb NOT NULL,
        created_by uuid NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX broadcasts_created ON broadcasts (created_at DESC, id DESC)`);
    await runner.query(`
      CREATE TABLE broadcast_recipients (
        broadcast_id uuid NOT NULL REFERENCES broadcasts (id),
        user_uuid uuid NOT NULL,
        position integer NOT NULL,
        status text NOT NULL CHECK (status IN ('QUEUED', 'HANDED', 'SKIPPED_UNSUBSCRIBED')),
        handed_at timestamptz,
        PRIMARY KEY (broadcast_id, user_uuid)
      )`);
    // The hand-off's next recipients, oldest broadcast first; and the rate's window.
    await runner.query(
      `CREATE INDEX broadcast_recipients_queued ON broadcast_recipients (broadcast_id, position) WHERE status = 'QUEUED'`,
    );
    await runner.query(
      `CREATE INDEX broadcast_recipients_handed ON broadcast_recipients (handed_at) WHERE handed_at IS NOT NULL`,
    );
    await runner.query(`
      CREATE TABLE announcement_opt_outs (
        user_uuid uuid PRIMARY KEY,
        opted_out_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE announcement_opt_outs');
    await runner.query('DROP TABLE broadcast_recipients');
    await runner.query('DROP TABLE broadcasts');
  }
}

/**
 * Broadcasts become auditable (ADR 0091, amended): each records on its stream when its last recipient was handed on,
 * and `handed_off_at` says it did, so a pass that crashed before recording finds it again. Broadcasts sent before
 * they had streams have nothing to record: they are marked as recorded.
 */
export class BroadcastHandOffs1770500009110 implements MigrationInterface {
  name = 'BroadcastHandOffs1770500009110';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE broadcasts ADD COLUMN handed_off_at timestamptz');
    await runner.query('UPDATE broadcasts SET handed_off_at = created_at');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE broadcasts DROP COLUMN handed_off_at');
  }
}

/**
 * Notification preferences (issue 34, docs/adr/0102-notification-preferences.md): one row per person who changed
 * theirs, the channels of each kind they chose (a kind absent from `channels` keeps its defaults), lead days, the
 * low-balance threshold and quiet hours. The announcements switch becomes the `announcements` kind: each client who
 * had switched announcements off gets it off on every channel, so there is one setting; the old table is left unused
 * until a later release (a rolling deploy's older replicas still read it).
 */
export class NotificationPreferences1770800010200 implements MigrationInterface {
  name = 'NotificationPreferences1770800010200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notification_preferences (
        user_uuid uuid PRIMARY KEY,
        channels jsonb NOT NULL,
        lead_days integer CHECK (lead_days BETWEEN 1 AND 60),
        low_balance_threshold_minor bigint CHECK (low_balance_threshold_minor > 0),
        quiet_hours jsonb,
        updated_at timestamptz NOT NULL
      )`);
    await runner.query(`
      INSERT INTO notification_preferences (user_uuid, channels, updated_at)
      SELECT user_uuid, '{"announcements": []}'::jsonb, opted_out_at FROM announcement_opt_outs`);
    // The old table stays for now, unread and unwritten by this release: replicas of the one before still read it
    // while a rolling deploy replaces them, and a table gone under them would fail their broadcast sweep and their
    // unsubscribe link for that minute. A later release drops it.
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DELETE FROM announcement_opt_outs');
    await runner.query(`
      INSERT INTO announcement_opt_outs (user_uuid, opted_out_at)
      SELECT user_uuid, updated_at FROM notification_preferences
       WHERE channels->'announcements' = '[]'::jsonb`);
    await runner.query('DROP TABLE notification_preferences');
  }
}

/**
 * Telegram links (docs/adr/0103-telegram-channel.md): the chat linked to each account (one chat per account and one
 * account per chat), written with the `TelegramLinked`/`TelegramUnlinked` events that tell it; `blocked_at` is set
 * by the later delivery when Telegram answers 403 for the chat. The link tokens are kept hashed, single-use and
 * short-lived, bound to the account that asked.
 */
export class TelegramLinks1770600010310 implements MigrationInterface {
  name = 'TelegramLinks1770600010310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE telegram_links (
        user_uuid uuid PRIMARY KEY,
        chat_id text NOT NULL UNIQUE,
        username text,
        linked_at timestamptz NOT NULL,
        blocked_at timestamptz
      )`);
    await runner.query(`
      CREATE TABLE telegram_link_tokens (
        token_hash text PRIMARY KEY,
        user_uuid uuid NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await runner.query('CREATE INDEX telegram_link_tokens_user ON telegram_link_tokens (user_uuid)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE telegram_link_tokens');
    await runner.query('DROP TABLE telegram_links');
  }
}

/**
 * The Telegram outbox (docs/adr/0104-telegram-delivery.md): one row per notice and person, under the dedupe key of
 * the event that caused it (the mail's), so an event yields one Telegram message however often its writer runs. The
 * row names the person, not the chat: the chat is looked up when it is sent. It waits until sent (`sent_at`) or
 * skipped (`skipped_at`, `skip_reason`: no chat linked any more, or the chat blocked the bot), retried after a capped
 * backoff (`attempts`, `next_attempt_at`, `last_error`) and never given up.
 */
export class TelegramOutbox1770900010400 implements MigrationInterface {
  name = 'TelegramOutbox1770900010400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE telegram_outbox (
        id bigserial PRIMARY KEY,
        dedupe_key text NOT NULL UNIQUE,
        user_uuid uuid NOT NULL,
        kind text NOT NULL,
        params jsonb NOT NULL,
        language text CHECK (language IN ('he', 'en')),
        created_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        sent_at timestamptz,
        skipped_at timestamptz,
        skip_reason text CHECK (skip_reason IN ('UNLINKED', 'BLOCKED')),
        last_error text,
        CHECK ((skipped_at IS NULL) = (skip_reason IS NULL))
      )`);
    // Each person's waiting messages in order: the sender's heads of line, and the skip of a person's waiting ones.
    await runner.query(
      `CREATE INDEX telegram_outbox_pending ON telegram_outbox (user_uuid, created_at, id)
        WHERE sent_at IS NULL AND skipped_at IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE telegram_outbox');
  }
}

/**
 * `payments` is now offered in the portal, on by default (ADR 0105: a deposit credited is a portal notice). Nobody
 * could have switched the portal off for it before, so whoever saved preferences gets the new default, as a kind
 * added later starts at its defaults for everyone.
 */
export class PaymentsInThePortal1770900010500 implements MigrationInterface {
  name = 'PaymentsInThePortal1770900010500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      UPDATE notification_preferences SET channels = jsonb_set(channels, '{payments}', (channels->'payments') || '["portal"]'::jsonb)
       WHERE jsonb_typeof(channels->'payments') = 'array' AND NOT (channels->'payments') ? 'portal'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      UPDATE notification_preferences SET channels = jsonb_set(channels, '{payments}', (channels->'payments') - 'portal')
       WHERE jsonb_typeof(channels->'payments') = 'array'`);
  }
}

/**
 * Staff alerts (docs/adr/0106-staff-alerts.md). The Telegram outbox may now address a configured chat (the staff
 * group, `TELEGRAM_STAFF_CHAT_ID`) instead of a person: exactly one of `user_uuid` and `chat_id` is set. A chat's
 * messages keep their own line, in order, like a person's. `processor_lag_episodes` remembers, for each processor,
 * whether the staff were told it lags, so that an episode is told once when it starts and once when it ends however
 * many readings see it.
 */
export class StaffAlerts1771000010600 implements MigrationInterface {
  name = 'StaffAlerts1771000010600';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE telegram_outbox ALTER COLUMN user_uuid DROP NOT NULL');
    await runner.query('ALTER TABLE telegram_outbox ADD COLUMN chat_id text');
    await runner.query(
      `ALTER TABLE telegram_outbox ADD CONSTRAINT telegram_outbox_one_recipient
         CHECK ((user_uuid IS NULL) <> (chat_id IS NULL))`,
    );
    // A configured chat's waiting messages in order, as `telegram_outbox_pending` has them for a person.
    await runner.query(
      `CREATE INDEX telegram_outbox_chat_pending ON telegram_outbox (chat_id, created_at, id)
        WHERE chat_id IS NOT NULL AND sent_at IS NULL AND skipped_at IS NULL`,
    );
    await runner.query(`
      CREATE TABLE processor_lag_episodes (
        processor text PRIMARY KEY,
        episode integer NOT NULL,
        lagging boolean NOT NULL,
        changed_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE processor_lag_episodes');
    await runner.query('DELETE FROM telegram_outbox WHERE chat_id IS NOT NULL');
    await runner.query('DROP INDEX telegram_outbox_chat_pending');
    await runner.query('ALTER TABLE telegram_outbox DROP CONSTRAINT telegram_outbox_one_recipient');
    await runner.query('ALTER TABLE telegram_outbox DROP COLUMN chat_id');
    await runner.query('ALTER TABLE telegram_outbox ALTER COLUMN user_uuid SET NOT NULL');
  }
}
