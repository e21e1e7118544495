import {
  LOCAL_TIME_PATTERN,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KIND_RULES,
  NOTIFICATION_PREFERENCE_KINDS,
  NOTIFICATION_PREFERENCE_LIMITS,
  type NotificationChannel,
  type NotificationPreferenceKind,
  type NotificationPreferences,
  type QuietHours,
  defaultNotificationPreferences,
} from '@kupa/proto';
import { DomainError } from '../../../kernel';

/** What a person sent: any kind left out keeps what it had. */
export interface NotificationPreferencesInput {
  channels?: Partial<Record<string, readonly string[]>>;
  leadDays?: number | null;
  lowBalanceThresholdMinor?: number | null;
  quietHours?: QuietHours | null;
}

/**
 * The preferences after a change (docs/adr/0102-notification-preferences.md): each kind's channels as sent, in the
 * catalogue's order; a channel the kind is not offered on, a security notice off on both e-mail and the portal, lead
 * days or a threshold out of range, quiet hours that are not two different `HH:MM` times in a known time zone are
 * refused with their catalogue codes. A staff-only kind (`staff-alerts`, ADR 0106) is offered on no channel to a
 * client.
 */
export function changePreferences(
  current: NotificationPreferences,
  input: NotificationPreferencesInput,
  who: { staff: boolean } = { staff: false },
): NotificationPreferences {
  const channels = { ...current.channels };
  for (const [kind, chosen] of Object.entries(input.channels ?? {})) {
    if (!isPreferenceKind(kind) || !Array.isArray(chosen)) throw new DomainError('error.validation.failed');
    if (NOTIFICATION_KIND_RULES[kind].staffOnly && !who.staff)
      throw new DomainError('error.notification.preferences.channel.not.offered');
    const offered = NOTIFICATION_KIND_RULES[kind].offered;
    if (chosen.some((channel) => !offered.includes(channel as NotificationChannel)))
      throw new DomainError('error.notification.preferences.channel.not.offered');
    channels[kind] = NOTIFICATION_CHANNELS.filter((channel) => chosen.includes(channel));
  }
  for (const kind of NOTIFICATION_PREFERENCE_KINDS) {
    if (NOTIFICATION_KIND_RULES[kind].security && !channels[kind].some((c) => c === 'email' || c === 'portal'))
      throw new DomainError('error.notification.preferences.security.required');
  }
  const leadDays = input.leadDays === undefined ? current.leadDays : input.leadDays;
  if (
    leadDays !== null &&
    !inRange(leadDays, NOTIFICATION_PREFERENCE_LIMITS.leadDaysMin, NOTIFICATION_PREFERENCE_LIMITS.leadDaysMax)
  )
    throw new DomainError('error.notification.preferences.lead.days.range');
  const threshold =
    input.lowBalanceThresholdMinor === undefined ? current.lowBalanceThresholdMinor : input.lowBalanceThresholdMinor;
  if (threshold !== null && !inRange(threshold, 1, NOTIFICATION_PREFERENCE_LIMITS.lowBalanceThresholdMaxMinor))
    throw new DomainError('error.notification.preferences.threshold.range');
  const quietHours = input.quietHours === undefined ? current.quietHours : input.quietHours;
  if (quietHours !== null) checkQuietHours(quietHours);
  return { channels, leadDays, lowBalanceThresholdMinor: threshold, quietHours };
}

/** The stored choices over today's defaults: a kind added later starts at its defaults for everyone. */
export function preferencesFrom(stored: Partial<NotificationPreferences> | null): NotificationPreferences {
  const defaults = defaultNotificationPreferences();
  if (stored === null) return defaults;
  const channels = { ...defaults.channels };
  for (const kind of NOTIFICATION_PREFERENCE_KINDS) {
    const chosen = stored.channels?.[kind];
    if (chosen)
      channels[kind] = NOTIFICATION_CHANNELS.filter(
        (c) => chosen.includes(c) && NOTIFICATION_KIND_RULES[kind].offered.includes(c),
      );
  }
  return {
    channels,
    leadDays: stored.leadDays ?? null,
    lowBalanceThresholdMinor: stored.lowBalanceThresholdMinor ?? null,
    quietHours: stored.quietHours ?? null,
  };
}

/**
 * The channels a notice of this kind goes on for this person now: what they chose, less Telegram while no chat is
 * linked (a choice kept for when one is).
 */
export function channelsFor(
  kind: NotificationPreferenceKind,
  preferences: NotificationPreferences,
  reach: { telegramLinked: boolean },
): NotificationChannel[] {
  return preferences.channels[kind].filter((channel) => channel !== 'telegram' || reach.telegramLinked);
}

/**
 * When a message on this channel may go. Quiet hours hold back Telegram only: a chat message buzzes a phone, while a
 * mail and the portal's list wait to be opened anyway (ADR 0102). Inside the window the answer is the window's end,
 * counted in local wall-clock minutes of the person's time zone; the window may cross midnight.
 */
export function mayGoAt(channel: NotificationChannel, quietHours: QuietHours | null, now: Date): Date {
  if (channel !== 'telegram' || quietHours === null) return now;
  const from = minutesOf(quietHours.from);
  const to = minutesOf(quietHours.to);
  const local = localMinutes(now, quietHours.timeZone);
  const inside = from < to ? local >= from && local < to : local >= from || local < to;
  if (!inside) return now;
  const waitMinutes = (to - local + 24 * 60) % (24 * 60);
  const startOfMinute = now.getTime() - (now.getTime() % 60_000);
  return new Date(startOfMinute + waitMinutes * 60_000);
}

/**
 * The reminder days for one person, largest first: their lead days replace the installation's largest day, the
 * installation's smaller days stay (RENEWAL_REMINDER_DAYS keeps its rule of at most five distinct days).
 */
export function reminderDaysFor(installationDays: readonly number[], leadDays: number | null): number[] {
  if (leadDays === null) return [...installationDays];
  const smaller = installationDays.filter((day) => day < leadDays);
  return [leadDays, ...smaller].slice(0, 5);
}

function isPreferenceKind(kind: string): kind is NotificationPreferenceKind {
  return (NOTIFICATION_PREFERENCE_KINDS as readonly string[]).includes(kind);
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

function checkQuietHours(quietHours: QuietHours): void {
  const { from, to, timeZone } = quietHours;
  if (typeof from !== 'string' || typeof to !== 'string')
    throw new DomainError('error.notification.preferences.quiet.hours.invalid');
  if (!LOCAL_TIME_PATTERN.test(from) || !LOCAL_TIME_PATTERN.test(to) || from === to)
    throw new DomainError('error.notification.preferences.quiet.hours.invalid');
  if (!isTimeZone(timeZone)) throw new DomainError('error.notification.preferences.time.zone.invalid');
}

function isTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone.length === 0) return false;
  if (timeZone.length > NOTIFICATION_PREFERENCE_LIMITS.timeZoneMaxLength) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const hour = Number(parts.find((part) => part.type === 'hour')?.value);
  const minute = Number(parts.find((part) => part.type === 'minute')?.value);
  return hour * 60 + minute;
}
