import type { Bilingual } from './bilingual';
import type { UserRole } from './enums';
import type { NotificationKind } from './notifications';
import type { IsoDateTime } from './payloads';

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
  // a receipt of each deposit, voucher, purchase and renewal; a deposit whose purchase failed: mail. A deposit
  // credited by crypto, card or staff: portal notice (its mail is the receipt's, ADR 0105).
  'payments',
  // activated (ready), refunded (could not be set up), expired (ended): mail; days added: portal notice.
  'subscription-status',
  // an admin's broadcast: mail and portal notice. The former announcements switch is this setting (ADR 0102).
  'announcements',
  // a sign-in from a new device: mail and portal notice; a security notice, never off everywhere.
  'new-device',
  // the balance fell under the person's threshold: mail and portal notice.
  'low-balance',
  // money another client sent to this balance: mail and portal notice (ADR 0105).
  'transfers',
  // staff only (ADR 0106): what an operator wants at once (a large deposit, a provisioning failure, renewals that
  // failed, a processor lagging), in the staff member's own linked chat. Never offered to a client.
  'staff-alerts',
] as const;
export type NotificationPreferenceKind = (typeof NOTIFICATION_PREFERENCE_KINDS)[number];

interface KindRule {
  /** The channels the kind can go on; a channel not offered is never chosen, nor shown as a choice. */
  offered: readonly NotificationChannel[];
  /** What a person who never chose gets. */
  defaults: readonly NotificationChannel[];
  /** A security notice: at least one of e-mail and the portal stays on (Telegram may be unlinked at any moment). */
  security?: true;
  /** Only staff (ADMIN, SUPPORT) are told this kind; a client's settings screens leave it out (ADR 0106). */
  staffOnly?: true;
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

/** A kind a client may choose for: every kind but the staff-only ones. */
export type ClientNotificationPreferenceKind = Exclude<NotificationPreferenceKind, 'staff-alerts'>;

/** The kinds a client may choose for, in the catalogue's order (what the client screens list). */
export const CLIENT_NOTIFICATION_PREFERENCE_KINDS: readonly ClientNotificationPreferenceKind[] = Object.freeze(
  NOTIFICATION_PREFERENCE_KINDS.filter(
    (kind): kind is ClientNotificationPreferenceKind => !NOTIFICATION_KIND_RULES[kind].staffOnly,
  ),
);

/** Which preference decides a portal notice of the given kind. */
export const PREFERENCE_KIND_OF_NOTICE: Readonly<Record<NotificationKind, NotificationPreferenceKind>> = Object.freeze({
  'renewal-short': 'renewal-reminders',
  ending: 'renewal-reminders',
  'renewal-failed': 'renewal-reminders',
  'grace-started': 'renewal-reminders',
  announcement: 'announcements',
  extended: 'subscription-status',
  'new-device': 'new-device',
  'deposit-credited': 'payments',
  'transfer-received': 'transfers',
  'low-balance': 'low-balance',
  'deposit-claim-rejected': 'payments',
});

/**
 * The kinds and channels in people's words, lower case as inside a sentence (the activity log's account of a change);
 * a screen that lists them as headings starts them with a capital (`capitalized`).
 */
export const NOTIFICATION_PREFERENCE_KIND_LABELS: Readonly<Record<NotificationPreferenceKind, Bilingual>> =
  /* @__PURE__ */ Object.freeze({
    'renewal-reminders': { he: 'תזכורות חידוש', en: 'renewal reminders' },
    'renewal-results': { he: 'תוצאות חידוש', en: 'renewal results' },
    payments: { he: 'תשלומים וקבלות', en: 'payments and receipts' },
    'subscription-status': { he: 'מצב המנוי', en: 'subscription status' },
    announcements: { he: 'הודעות והכרזות', en: 'announcements' },
    'new-device': { he: 'כניסה ממכשיר חדש', en: 'sign-ins from a new device' },
    'low-balance': { he: 'יתרה נמוכה', en: 'low balance' },
    transfers: { he: 'העברות שהתקבלו', en: 'transfers received' },
    'staff-alerts': { he: 'התראות צוות', en: 'staff alerts' },
  });

export const NOTIFICATION_CHANNEL_LABELS: Readonly<Record<NotificationChannel, Bilingual>> =
  /* @__PURE__ */ Object.freeze({
    email: { he: 'דוא״ל', en: 'e-mail' },
    telegram: { he: 'טלגרם', en: 'Telegram' },
    portal: { he: 'פורטל', en: 'portal' },
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

/**
 * The preferences as a person reads them (the preference routes' answer): a client's leave out the staff-only kinds,
 * which a client can neither choose nor receive (ADR 0106); staff read every kind.
 */
export interface NotificationPreferencesView extends Omit<NotificationPreferences, 'channels'> {
  channels: Record<ClientNotificationPreferenceKind, NotificationChannel[]> &
    Partial<Record<NotificationPreferenceKind, NotificationChannel[]>>;
}

export function preferencesShownTo(preferences: NotificationPreferences, staff: boolean): NotificationPreferencesView {
  if (staff) return preferences;
  const channels = {} as NotificationPreferencesView['channels'];
  for (const kind of CLIENT_NOTIFICATION_PREFERENCE_KINDS) channels[kind] = preferences.channels[kind];
  return { ...preferences, channels };
}

/**
 * A low-balance notice is due when a change takes the balance from at least the threshold to under it (ADR 0102):
 * once per crossing, since the next one needs the balance to have come back up to the threshold first.
 */
export function lowBalanceCrossed(previousMinor: number, currentMinor: number, thresholdMinor: number | null): boolean {
  if (thresholdMinor === null) return false;
  return previousMinor >= thresholdMinor && currentMinor < thresholdMinor;
}

export function defaultNotificationPreferences(): NotificationPreferences {
  const channels = {} as Record<NotificationPreferenceKind, NotificationChannel[]>;
  for (const kind of NOTIFICATION_PREFERENCE_KINDS) channels[kind] = [...NOTIFICATION_KIND_RULES[kind].defaults];
  return { channels, leadDays: null, lowBalanceThresholdMinor: null, quietHours: null };
}

/**
 * A person's notification preferences as events (ADR 0105): stream `notification-preferences-{userUuid}` (the
 * notifications context's), one event per saved change, appended with the row it explains; the activity log tells
 * it under the person.
 */
export const NOTIFICATION_PREFERENCES_EVENT_TYPES = Object.freeze({
  changed: 'NotificationPreferencesChanged',
} as const);

export type NotificationPreferencesEventType =
  (typeof NOTIFICATION_PREFERENCES_EVENT_TYPES)[keyof typeof NOTIFICATION_PREFERENCES_EVENT_TYPES];

export const NOTIFICATION_PREFERENCES_STREAM_PREFIX = 'notification-preferences-';

export function notificationPreferencesStreamId(userUuid: string): string {
  return `${NOTIFICATION_PREFERENCES_STREAM_PREFIX}${userUuid}`;
}

/** One kind whose channels changed: the channels after the change (an empty list: off everywhere). */
export interface NotificationChannelsChange {
  kind: NotificationPreferenceKind;
  channels: NotificationChannel[];
}

/**
 * A person saved preferences that differ from what they had: only what changed is named (`channels` lists the kinds
 * whose channels changed; a setting left out of `changed` kept its value), and `previous` is the whole setting before,
 * so a reader tells what changed from what without another source. Saving the same setting again records nothing.
 */
export interface NotificationPreferencesChangedData {
  userUuid: string;
  userRole: UserRole;
  /** The settings that changed, besides `channels`: their new values are the fields of the same names. */
  changed: Array<'leadDays' | 'lowBalanceThresholdMinor' | 'quietHours'>;
  channels: NotificationChannelsChange[];
  leadDays: number | null;
  lowBalanceThresholdMinor: number | null;
  quietHours: QuietHours | null;
  previous: NotificationPreferences;
  changedAt: IsoDateTime;
}

export interface NotificationPreferencesEventDataByType {
  NotificationPreferencesChanged: NotificationPreferencesChangedData;
}

export type NotificationPreferencesEvent = {
  [Type in NotificationPreferencesEventType]: { type: Type; data: NotificationPreferencesEventDataByType[Type] };
}[NotificationPreferencesEventType];
