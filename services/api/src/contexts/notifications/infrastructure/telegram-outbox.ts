import type { Language, QuietHours } from '@kupa/proto';
import type { DataSource, EntityManager } from 'typeorm';
import type { TelegramNoticeKind, TelegramNoticeParams } from './telegram-notice-texts';

/**
 * A notice for a person's Telegram chat, as a writer records it (docs/adr/0104-telegram-delivery.md): addressed to the
 * person, not the chat (the chat is looked up when it is sent, so a relinked account gets it in its new chat), under
 * the dedupe key its mail uses (the causing event: once per event and channel).
 */
export interface TelegramNotice {
  dedupeKey: string;
  userUuid: string;
  kind: TelegramNoticeKind;
  params: TelegramNoticeParams;
  /** Unset: the person's language when it is sent. */
  language?: Language;
}

/**
 * A message for a configured chat rather than a person (docs/adr/0106-staff-alerts.md): the staff group. It has no
 * preferences, no quiet hours and no link to lose; its language is the one configured for it.
 */
export interface TelegramChatNotice {
  dedupeKey: string;
  chatId: string;
  kind: TelegramNoticeKind;
  params: TelegramNoticeParams;
  language: Language;
}

/**
 * Records Telegram notices inside the writer's transaction; a second recording under the same dedupe key changes
 * nothing. The writer asks `notificationChannels` first: only a person with a linked chat, Telegram chosen for the
 * kind, gets one.
 */
export async function enqueueTelegramNotices(
  manager: EntityManager,
  notices: readonly TelegramNotice[],
  now: Date,
): Promise<void> {
  if (notices.length === 0) return;
  await manager.query(
    `INSERT INTO telegram_outbox (dedupe_key, user_uuid, kind, params, language, created_at, next_attempt_at)
     SELECT dedupe_key, user_uuid, kind, params, language, $6, $6
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::jsonb[], $5::text[])
         AS n(dedupe_key, user_uuid, kind, params, language)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      notices.map((notice) => notice.dedupeKey),
      notices.map((notice) => notice.userUuid),
      notices.map((notice) => notice.kind),
      notices.map((notice) => JSON.stringify(notice.params)),
      notices.map((notice) => notice.language ?? null),
      now,
    ],
  );
}

/**
 * Records messages for configured chats inside the writer's transaction, in the same outbox and line discipline as a
 * person's; a second recording under the same dedupe key changes nothing.
 */
export async function enqueueTelegramChatNotices(
  manager: EntityManager,
  notices: readonly TelegramChatNotice[],
  now: Date,
): Promise<void> {
  if (notices.length === 0) return;
  await manager.query(
    `INSERT INTO telegram_outbox (dedupe_key, chat_id, kind, params, language, created_at, next_attempt_at)
     SELECT dedupe_key, chat_id, kind, params, language, $6, $6
       FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::text[])
         AS n(dedupe_key, chat_id, kind, params, language)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      notices.map((notice) => notice.dedupeKey),
      notices.map((notice) => notice.chatId),
      notices.map((notice) => notice.kind),
      notices.map((notice) => JSON.stringify(notice.params)),
      notices.map((notice) => notice.language),
      now,
    ],
  );
}

/**
 * A line's oldest waiting message (a person's, or a configured chat's), with where it goes now and whether it may go
 * now.
 */
export interface TelegramHead {
  id: string;
  /** Whose line: the person's uuid, or `chat:<id>` for a configured chat. */
  line: string;
  /** Null for a configured chat's message. */
  user_uuid: string | null;
  kind: string;
  params: TelegramNoticeParams;
  language: Language | null;
  created_at: Date;
  next_attempt_at: Date;
  attempts: number;
  /** The configured chat, or the person's linked one; null: no chat is linked any more. */
  chat_id: string | null;
  blocked_at: Date | null;
  quiet_hours: QuietHours | null;
}

/**
 * Each line's oldest message not sent yet (a person's or a configured chat's head of line), among those due now,
 * oldest first, leaving out the chats that had a message too recently. A line whose head is not due (a retry's
 * backoff, quiet hours) has no message here: its later ones wait behind it. Reads the pending rows through
 * `telegram_outbox_pending` and `telegram_outbox_chat_pending`.
 */
export async function dueHeads(
  dataSource: DataSource,
  now: Date,
  busyChats: readonly string[],
  limit: number,
): Promise<TelegramHead[]> {
  return dataSource.query(
    `SELECT h.id, h.line, h.user_uuid, h.kind, h.params, h.language, h.created_at, h.next_attempt_at, h.attempts,
            COALESCE(h.chat_id, l.chat_id) AS chat_id, l.blocked_at, p.quiet_hours
       FROM ((SELECT DISTINCT ON (o.user_uuid) o.id::text AS id, o.user_uuid::text AS line, o.user_uuid, o.chat_id,
                     o.kind, o.params, o.language, o.created_at, o.next_attempt_at, o.attempts, o.id AS seq
                FROM telegram_outbox o
               WHERE o.user_uuid IS NOT NULL AND o.sent_at IS NULL AND o.skipped_at IS NULL
               ORDER BY o.user_uuid, o.created_at, o.id)
             UNION ALL
             (SELECT DISTINCT ON (o.chat_id) o.id::text AS id, 'chat:' || o.chat_id AS line, o.user_uuid, o.chat_id,
                     o.kind, o.params, o.language, o.created_at, o.next_attempt_at, o.attempts, o.id AS seq
                FROM telegram_outbox o
               WHERE o.chat_id IS NOT NULL AND o.sent_at IS NULL AND o.skipped_at IS NULL
               ORDER BY o.chat_id, o.created_at, o.id)) h
       LEFT JOIN telegram_links l ON l.user_uuid = h.user_uuid
       LEFT JOIN notification_preferences p ON p.user_uuid = h.user_uuid
      WHERE h.next_attempt_at <= $1
        AND (COALESCE(h.chat_id, l.chat_id) IS NULL OR NOT (COALESCE(h.chat_id, l.chat_id) = ANY($2::text[])))
      ORDER BY h.created_at, h.seq
      LIMIT $3`,
    [now, busyChats, limit],
  );
}

export async function markSent(dataSource: DataSource, id: string, at: Date): Promise<void> {
  await dataSource.query(
    `UPDATE telegram_outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL
      WHERE id = $1 AND sent_at IS NULL AND skipped_at IS NULL`,
    [id, at],
  );
}

/** An attempt that did not deliver: counted, why kept, and the next attempt set (unchanged for a 429). */
export async function markAttempt(
  dataSource: DataSource,
  id: string,
  reason: string,
  nextAttemptAt: Date | null,
): Promise<void> {
  await dataSource.query(
    `UPDATE telegram_outbox SET attempts = attempts + 1, last_error = $2,
            next_attempt_at = COALESCE($3, next_attempt_at)
      WHERE id = $1 AND sent_at IS NULL`,
    [id, reason.slice(0, 500), nextAttemptAt],
  );
}

/** Holds a message until the end of the person's quiet hours; not an attempt. */
export async function holdUntil(dataSource: DataSource, id: string, until: Date): Promise<void> {
  await dataSource.query('UPDATE telegram_outbox SET next_attempt_at = $2 WHERE id = $1 AND sent_at IS NULL', [
    id,
    until,
  ]);
}

export type TelegramSkipReason = 'UNLINKED' | 'BLOCKED';

/** Skips every message of the person still waiting: no chat reaches them now. Answers how many. */
export async function skipPending(
  dataSource: DataSource,
  userUuid: string,
  reason: TelegramSkipReason,
  at: Date,
): Promise<number> {
  const [, affected]: [unknown, number] = await dataSource.query(
    `UPDATE telegram_outbox SET skipped_at = $3, skip_reason = $2
      WHERE user_uuid = $1 AND sent_at IS NULL AND skipped_at IS NULL`,
    [userUuid, reason, at],
  );
  return affected;
}

/**
 * The chat blocked the bot (403): the link is marked and the person's waiting messages skipped, in one transaction.
 * Only the chat that answered is marked: a relink to another chat meanwhile is not. Linking again clears the mark
 * (TelegramLinks), and `notificationChannels` leaves Telegram out until then.
 */
export async function markBlocked(dataSource: DataSource, userUuid: string, chatId: string, at: Date): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query(
      'UPDATE telegram_links SET blocked_at = $3 WHERE user_uuid = $1 AND chat_id = $2 AND blocked_at IS NULL',
      [userUuid, chatId, at],
    );
    await manager.query(
      `UPDATE telegram_outbox SET skipped_at = $2, skip_reason = 'BLOCKED'
        WHERE user_uuid = $1 AND sent_at IS NULL AND skipped_at IS NULL`,
      [userUuid, at],
    );
  });
}

/**
 * A configured chat blocked the bot or left it (403): its waiting messages are skipped. Nothing is remembered: the
 * next alert tries the chat again, so an operator who adds the bot back gets the alerts from then on.
 */
export async function skipChatPending(dataSource: DataSource, chatId: string, at: Date): Promise<void> {
  await dataSource.query(
    `UPDATE telegram_outbox SET skipped_at = $2, skip_reason = 'BLOCKED'
      WHERE chat_id = $1 AND sent_at IS NULL AND skipped_at IS NULL`,
    [chatId, at],
  );
}

/** The Telegram outbox at one moment: messages waiting (due or held) and the age of the oldest. */
export interface TelegramOutboxReading {
  unsent: number;
  /** 0 when every message went out or was skipped. */
  oldestUnsentSeconds: number;
}

export async function readTelegramOutbox(dataSource: DataSource, now: Date): Promise<TelegramOutboxReading> {
  const rows: { unsent: number; oldest: Date | null }[] = await dataSource.query(
    `SELECT count(*)::int AS unsent, min(created_at) AS oldest FROM telegram_outbox
      WHERE sent_at IS NULL AND skipped_at IS NULL`,
  );
  const oldest = rows[0]?.oldest ?? null;
  return {
    unsent: rows[0]?.unsent ?? 0,
    oldestUnsentSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000),
  };
}

/**
 * Deletes the messages sent or skipped before `before`, at most `batchRows` a call; answers how many. Waiting messages
 * are never touched, however old. A deleted row's dedupe key is forgotten with it: the retention must outlast any
 * re-run of the writer that recorded it (a processor's batch is re-run within minutes of a crash, not months).
 */
export async function pruneTelegramOutbox(dataSource: DataSource, before: Date, batchRows: number): Promise<number> {
  // A SELECT around the DELETE, so that TypeORM answers rows rather than its [rows, count] pair for a DELETE.
  const [{ deleted }]: { deleted: number }[] = await dataSource.query(
    `WITH deleted AS (
       DELETE FROM telegram_outbox WHERE id IN (
         SELECT id FROM telegram_outbox WHERE sent_at < $1 OR skipped_at < $1 LIMIT $2
       )
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM deleted`,
    [before, batchRows],
  );
  return deleted;
}
