import {
  type NotificationChannel,
  type NotificationPreferenceKind,
  type NotificationPreferences,
  type QuietHours,
} from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { channelsFor, preferencesFrom } from '../domain/notification-preferences';

interface PreferencesRow {
  user_uuid: string;
  channels: Partial<Record<NotificationPreferenceKind, NotificationChannel[]>> | null;
  lead_days: number | null;
  low_balance_threshold_minor: string | null;
  quiet_hours: QuietHours | null;
  /** A chat is linked and has not blocked the bot (ADR 0104). */
  telegram_linked: boolean;
}

/**
 * One row per person asked about, in one query: what they chose (nulls for someone who never did) and whether a
 * Telegram chat reaches them.
 */
async function preferenceRows(manager: EntityManager, userUuids: readonly string[]): Promise<PreferencesRow[]> {
  const unique = [...new Set(userUuids)];
  if (unique.length === 0) return [];
  return manager.query(
    `SELECT u.user_uuid::text AS user_uuid, p.channels, p.lead_days, p.low_balance_threshold_minor::text,
            p.quiet_hours, l.user_uuid IS NOT NULL AS telegram_linked
       FROM unnest($1::uuid[]) AS u(user_uuid)
       LEFT JOIN notification_preferences p ON p.user_uuid = u.user_uuid
       LEFT JOIN telegram_links l ON l.user_uuid = u.user_uuid AND l.blocked_at IS NULL`,
    [unique],
  );
}

function preferencesOfRow(row: PreferencesRow | undefined): NotificationPreferences {
  if (!row || row.channels === null) return preferencesFrom(null);
  return preferencesFrom({
    channels: row.channels as NotificationPreferences['channels'],
    leadDays: row.lead_days,
    lowBalanceThresholdMinor: row.low_balance_threshold_minor === null ? null : Number(row.low_balance_threshold_minor),
    quietHours: row.quiet_hours,
  });
}

/**
 * The preferences of several people in one query, each over today's defaults (docs/adr/0102-notification-
 * preferences.md); a person who never chose has the defaults. Read in the caller's transaction.
 */
export async function preferencesOf(
  manager: EntityManager,
  userUuids: readonly string[],
): Promise<Map<string, NotificationPreferences>> {
  const rows = await preferenceRows(manager, userUuids);
  return new Map(rows.map((row) => [row.user_uuid, preferencesOfRow(row)]));
}

/** On which channels a notice of a kind goes to one of the people asked about. */
export type ChannelsOf = (userUuid: string, kind: NotificationPreferenceKind) => NotificationChannel[];

/**
 * The one question every writer of a mail row, a portal notice or a Telegram message asks
 * (docs/adr/0102-notification-preferences.md), inside its own transaction and with one query for all its recipients:
 * on which channels does a notice of a kind go to each of them? Telegram is in the answer when the person chose it
 * and a chat is linked that has not blocked the bot (ADR 0104). Someone not asked about gets the defaults, without
 * Telegram.
 */
export async function notificationChannels(manager: EntityManager, userUuids: readonly string[]): Promise<ChannelsOf> {
  const people = new Map(
    (await preferenceRows(manager, userUuids)).map((row) => [
      row.user_uuid,
      { preferences: preferencesOfRow(row), reach: { telegramLinked: row.telegram_linked } },
    ]),
  );
  const nobody = { preferences: preferencesFrom(null), reach: { telegramLinked: false } };
  return (userUuid, kind) => {
    const person = people.get(userUuid) ?? nobody;
    return channelsFor(kind, person.preferences, person.reach);
  };
}

/** Keeps one person's preferences as a whole, replacing what they had. */
export async function savePreferences(
  manager: EntityManager,
  userUuid: string,
  preferences: NotificationPreferences,
  at: Date,
): Promise<void> {
  await manager.query(
    `INSERT INTO notification_preferences (user_uuid, channels, lead_days, low_balance_threshold_minor, quiet_hours, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_uuid) DO UPDATE SET channels = $2, lead_days = $3, low_balance_threshold_minor = $4,
       quiet_hours = $5, updated_at = $6`,
    [
      userUuid,
      JSON.stringify(preferences.channels),
      preferences.leadDays,
      preferences.lowBalanceThresholdMinor,
      preferences.quietHours === null ? null : JSON.stringify(preferences.quietHours),
      at,
    ],
  );
}
