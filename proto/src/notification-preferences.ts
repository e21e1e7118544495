import type { NotificationKind } from './notifications';

/**
 * Notification preferences (issue 34; docs/adr/0102-notification-preferences.md): for each kind of notice a person may
 * choose for, the channels it goes on. Confirmations, password resets and e-mail-change mails are not here: they
 * always go by e-mail, since they are the answer to something the person just asked for.
 */
export const NOTIFICATION_CHANNELS = ['email', 'telegram', 'portal'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_PREFERENCE_KINDS = [
  // renewal-short, ending, renewal-failed, grace-started: mail and portal notice.
  'renewal-reminders',
  // renewed: mail.
  'renewal-results',
  // a receipt of each deposit, voucher, purchase and renewal; a deposit whose purchase failed: mail.
  'payments',
  // activated (ready), refunded (could not be set up), expired (ended): mail; days added: portal notice.
  'subscription-status',
  // an admin's broadcast: mail and portal notice. The former announcements switch is this setting (ADR 0102).
  'announcements',
  // a sign-in from a new device: mail and portal notice; a security notice, never off everywhere.
  'new-device',
  // the balance fell under the person's threshold: mail and portal notice.
  'low-balance',
] as const;
export type NotificationPreferenceKind = (typeof NOTIFICATION_PREFERENCE_KINDS)[number];

interface KindRule {
  /** The channels the kind can go on; a channel not offered is never chosen, nor shown as a choice. */
  offered: readonly NotificationChannel[];
  /** What a person who never chose gets. */
  defaults: readonly NotificationChannel[];
  /** A security notice: at least one of e-mail and the portal stays on (Telegram may be unlinked at any moment). */
  security?: true;
}

export const NOTIFICATION_KIND_RULES: Readonly<Record<NotificationPreferenceKind, KindRule>> = Object.freeze({
  'renewal-reminders': { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'telegram', 'portal'] },
  'renewal-results': { offered: ['email', 'telegram'], defaults: ['email', 'telegram'] },
  payments: { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'telegram', 'portal'] },
  'subscription-status': { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'telegram', 'portal'] },
  // Marketing in a chat interrupts: Telegram only for those who ask for it.
  announcements: { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'portal'] },
  'new-device': {
    offered: ['email', 'telegram', 'portal'],
    defaults: ['email', 'telegram', 'portal'],
    security: true,
  },
  'low-balance': { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'telegram', 'portal'] },
  transfers: { offered: ['email', 'telegram', 'portal'], defaults: ['email', 'telegram', 'portal'] },
  // An alert is for now, in the chat; the console already shows its facts, so there is no mail or portal copy.
  'staff-alerts': { offered: ['telegram'], defaults: ['telegram'], staffOnly: true },
});

/** Which preference decides a portal notice of the given kind. */
export const PREFERENCE_KIND_OF_NOTICE: Readonly<Record<NotificationKind, NotificationPreferenceKind>> = Object.freeze({
  'renewal-short': 'renewal-reminders',
  ending: 'renewal-reminders',
  'renewal-failed': 'renewal-reminders',
  'grace-started': 'renewal-reminders',
  announcement: 'announcements',
  extended: 'subscription-status',
  'new-device': 'new-device',
});

export const NOTIFICATION_PREFERENCE_LIMITS = Object.freeze({
  /** Personal reminder lead: the first reminder this many days before (bounded like RENEWAL_REMINDER_DAYS). */
  leadDaysMin: 1,
  leadDaysMax: 60,
  /** The low-balance threshold, in cents: $1,000 at most. */
  lowBalanceThresholdMaxMinor: 100_000,
  /** An IANA time zone name is short; longer input is not one. */
  timeZoneMaxLength: 64,
});

/** `HH:MM`, 00:00–23:59, local time in the person's time zone. */
export const LOCAL_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A window when Telegram stays silent; `from` after `to` crosses midnight. Equal ends are refused. */
export interface QuietHours {
  from: string;
  to: string;
  timeZone: string;
}

/** `GET`/`PUT /users/me/notification-preferences` (and `GET /users/{uuid}/notification-preferences` for staff). */
export interface NotificationPreferences {
  /** Every kind, with the channels it goes on (only offered ones). */
  channels: Record<NotificationPreferenceKind, NotificationChannel[]>;
  /** The first renewal reminder this many days ahead; null: the installation's RENEWAL_REMINDER_DAYS. */
  leadDays: number | null;
  /** A notice when the balance falls under this many cents; null: no low-balance notice. */
  lowBalanceThresholdMinor: number | null;
  quietHours: QuietHours | null;
}

export function defaultNotificationPreferences(): NotificationPreferences {
  const channels = {} as Record<NotificationPreferenceKind, NotificationChannel[]>;
  for (const kind of NOTIFICATION_PREFERENCE_KINDS) channels[kind] = [...NOTIFICATION_KIND_RULES[kind].defaults];
  return { channels, leadDays: null, lowBalanceThresholdMinor: null, quietHours: null };
}
