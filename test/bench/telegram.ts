import type { Client } from 'pg';
import { type FakeTelegram, maxPerChatPerSecond } from '@kupa/api/testing';
import type { Api } from './http.ts';
import { round } from './stats.ts';

/**
 * The Telegram scenario of the bench (docs/adr/0104-telegram-delivery.md): an admin's broadcast to many clients who
 * linked a chat and switched announcements on for Telegram, delivered through the Telegram outbox to the fake Bot API,
 * which enforces Telegram's limits (one message a second per chat, 30 a second in all, 429 `retry_after` past them).
 * It answers how long the outbox took to drain, the rate, the most messages one chat got within a second, and how
 * many sends Telegram refused with 429.
 *
 * The clients, their links and their preferences are seeded by SQL, not through the API: 10,000 sign-ups would hash
 * 10,000 passwords and 10,000 `/start` conversations would measure the linking, not the delivery. The rows are the
 * ones the real paths write (`users`, `telegram_links`, `notification_preferences`); the broadcast goes through the
 * API and everything after it is the server's own.
 */

const POLL_MS = 1000;
const PROGRESS_LOG_MS = 30_000;
const EMAIL_PREFIX = 'tgbench';

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export interface TelegramBenchOptions {
  api: Api;
  db: Client;
  admin: string;
  telegram: FakeTelegram;
  clients: number;
  /** The outbox must be drained by then, or the scenario fails. */
  timeoutMs: number;
}

export async function measureTelegramBroadcast(options: TelegramBenchOptions): Promise<Record<string, unknown>> {
  const { api, db, admin, telegram, clients } = options;
  log(`  seeding ${clients} clients with a linked chat and announcements on Telegram (SQL)`);
  await db.query(
    `INSERT INTO users (uuid, email, first_name, last_name, role, status, profile_id, created_at, updated_at, language)
     SELECT gen_random_uuid(), '${EMAIL_PREFIX}-' || i || '@bench.kupa.test', 'Bench', 'Telegram', 'CLIENT', 'ACTIVE',
            'T' || lpad(i::text, 7, '0'), now(), now(), CASE WHEN i % 2 = 0 THEN 'he' ELSE 'en' END
       FROM generate_series(1, $1::int) AS i`,
    [clients],
  );
  await db.query(
    `INSERT INTO telegram_links (user_uuid, chat_id, username, linked_at)
     SELECT uuid, (7000000000 + row_number() OVER (ORDER BY email))::text, NULL, now()
       FROM users WHERE email LIKE '${EMAIL_PREFIX}-%'`,
  );
  await db.query(
    `INSERT INTO notification_preferences (user_uuid, channels, updated_at)
     SELECT uuid, '{"announcements": ["telegram"]}'::jsonb, now() FROM users WHERE email LIKE '${EMAIL_PREFIX}-%'`,
  );
  telegram.enforceLimits({ perChatPerSecond: 1, globalPerSecond: 30, retryAfterSeconds: 1 });
  const sentBefore = telegram.sent.length;
  const refusedBefore = telegram.tooManyRequestsAnswered;

  const started = performance.now();
  const startedAt = Date.now();
  const broadcast = await api.call<{ id: string; recipients: number }>('POST', '/broadcasts', admin, {
    subjectHe: 'הודעה לבדיקת עומס',
    bodyHe: 'ערוצים חדשים בחבילה.',
    subjectEn: 'A load test announcement',
    bodyEn: 'New channels in your package.',
    filter: { keyWord: EMAIL_PREFIX },
  });
  log(`  broadcast ${broadcast.id} to ${broadcast.recipients} recipients; waiting for the Telegram outbox to drain`);
  const key = `broadcast:${broadcast.id}:%`;
  let handedSeconds: number | null = null;
  let lastLog = performance.now();
  for (;;) {
    const [row] = (
      await db.query<{ recorded: number; sent: number; skipped: number; queued: number }>(
        `SELECT (SELECT count(*)::int FROM telegram_outbox WHERE dedupe_key LIKE $1) AS recorded,
                (SELECT count(*)::int FROM telegram_outbox WHERE dedupe_key LIKE $1 AND sent_at IS NOT NULL) AS sent,
                (SELECT count(*)::int FROM telegram_outbox WHERE dedupe_key LIKE $1 AND skipped_at IS NOT NULL) AS skipped,
                (SELECT count(*)::int FROM broadcast_recipients WHERE broadcast_id = $2 AND status = 'QUEUED') AS queued`,
        [key, broadcast.id],
      )
    ).rows;
    if (handedSeconds === null && row.queued === 0) handedSeconds = round((performance.now() - started) / 1000, 1);
    if (row.sent + row.skipped >= clients) break;
    if (performance.now() - started > options.timeoutMs)
      throw new Error(`The Telegram outbox did not drain within ${options.timeoutMs} ms: ${JSON.stringify(row)}`);
    if (performance.now() - lastLog > PROGRESS_LOG_MS) {
      log(`  ${row.sent} of ${clients} sent (${row.recorded} recorded, ${row.queued} still queued for hand-off)`);
      lastLog = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const drainSeconds = (performance.now() - started) / 1000;
  const messages = telegram.sent.slice(sentBefore);
  const firstAt = Math.min(...messages.map((message) => message.at));
  const lastAt = Math.max(...messages.map((message) => message.at));
  const sendingSeconds = (lastAt - firstAt) / 1000;
  const [{ skipped }] = (
    await db.query<{ skipped: number }>(
      'SELECT count(*)::int AS skipped FROM telegram_outbox WHERE dedupe_key LIKE $1 AND skipped_at IS NOT NULL',
      [key],
    )
  ).rows;
  return {
    clients,
    seededBy: 'SQL (users, telegram_links, notification_preferences rows as the real paths write them)',
    messagesReceived: messages.length,
    skipped,
    drainSeconds: round(drainSeconds, 1),
    handOffSeconds: handedSeconds,
    firstMessageAfterSeconds: round((firstAt - startedAt) / 1000, 1),
    messagesPerSecond: round(messages.length / drainSeconds, 1),
    sendingMessagesPerSecond: round(sendingSeconds > 0 ? messages.length / sendingSeconds : messages.length, 1),
    maxPerChatPerSecond: maxPerChatPerSecond(messages),
    maxPerSecondAllChats: maxPerSecond(messages.map((message) => message.at)),
    tooManyRequests: telegram.tooManyRequestsAnswered - refusedBefore,
  };
}

/** The most messages within any one second. */
function maxPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while (sorted[last]! - sorted[first]! >= 1000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
