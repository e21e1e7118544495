import type { ClientNotificationPreferenceKind } from '@kupa/proto';
import type { DictionaryPart } from '../../lib/i18n/dictionary-part';

/**
 * The words of the profile's Notifications section and Telegram card (docs/adr/0102-notification-preferences.md,
 * docs/adr/0103-telegram-channel.md). They load with the profile page rather than with the app's dictionaries, which
 * the first screen carries (docs/adr/0048-first-screen-in-one-chunk.md). The kinds' and channels' names are proto's,
 * shared with the console.
 */
const he = {
  title: 'התראות',
  intro: 'בחרו איך כל סוג של הודעה יגיע אליכם. אישורי הרשמה ואיפוס סיסמה נשלחים תמיד באימייל.',
  kind: 'סוג ההודעה',
  'hint.renewal-reminders': 'לפני חידוש: יתרה חסרה, מנוי שמסתיים, חידוש שנכשל',
  'hint.renewal-results': 'מנוי שחודש',
  'hint.payments': 'הפקדות שנכנסו, וקבלות על הפקדות, שוברים, רכישות וחידושים',
  'hint.subscription-status': 'מנוי מוכן, מנוי שלא הוקם, מנוי שהסתיים, ימים שנוספו',
  'hint.announcements': 'חדשות והצעות מאיתנו',
  'hint.new-device': 'התראת אבטחה: נשארת באימייל או בפורטל',
  'hint.low-balance': 'כשהיתרה יורדת מתחת לסף שתקבעו למטה',
  'hint.transfers': 'לקוח אחר העביר לכם יתרה',
  channelOf: '{kind}: {channel}',
  telegramNotLinked: 'הודעות בטלגרם יתחילו להגיע אחרי שתקשרו חשבון טלגרם.',
  telegramOff: 'טלגרם לא זמין בשירות הזה.',
  leadDays: 'תזכורת חידוש ראשונה (ימים לפני)',
  leadDaysHint: 'בין 1 ל-60. ריק: הימים הרגילים של השירות.',
  threshold: 'סף יתרה נמוכה',
  thresholdHint: 'הודעה כשהיתרה יורדת מתחת לסכום הזה. ריק: בלי הודעה.',
  quietHours: 'שעות שקט בטלגרם',
  quietHoursHint: 'בשעות האלה לא יישלחו הודעות בטלגרם; הן יגיעו בסוף שעות השקט. אימייל והפורטל לא מושפעים.',
  quietFrom: 'מהשעה',
  quietTo: 'עד השעה',
  timeZone: 'אזור זמן',
  save: 'שמירת ההגדרות',
  saving: 'שומרים…',
  saved: 'הגדרות ההתראות נשמרו',
  telegramTitle: 'טלגרם',
  telegramIntro: 'קבלו את ההתראות שלכם גם בטלגרם, דרך הבוט שלנו.',
  telegramNotConfigured: 'טלגרם לא זמין בשירות הזה כרגע.',
  telegramNone: 'אין חשבון טלגרם מקושר.',
  telegramLink: 'קישור טלגרם',
  telegramOpening: 'פותחים את טלגרם…',
  telegramWaiting: 'בטלגרם, לחצו על Start (התחל) בצ׳אט עם הבוט. הקישור בתוקף עד {time}.',
  telegramOpen: 'פתיחת טלגרם',
  telegramChecking: 'ממתינים לאישור מהבוט…',
  telegramExpired: 'תוקף הקישור פג לפני שהחשבון קושר. אפשר לבקש קישור חדש.',
  telegramLinkedAs: 'מקושר לחשבון {username}',
  telegramLinkedNoName: 'חשבון טלגרם מקושר',
  telegramLinkedOn: 'קושר ב-{date}',
  telegramLinkedNow: 'טלגרם קושר',
  telegramUnlink: 'ניתוק טלגרם',
  telegramUnlinkTitle: 'לנתק את טלגרם?',
  telegramUnlinkText: 'לא יישלחו יותר הודעות לטלגרם. אפשר לקשר שוב בכל עת.',
  telegramUnlinked: 'טלגרם נותק',
} as const;

export type NotificationSettingsKey = keyof typeof he;

const en: Record<NotificationSettingsKey, string> = {
  title: 'Notifications',
  intro: 'Choose how each kind of notice reaches you. Sign-up confirmations and password resets always come by e-mail.',
  kind: 'Kind of notice',
  'hint.renewal-reminders': 'Before a renewal: balance missing, ending, a renewal that failed',
  'hint.renewal-results': 'A subscription renewed',
  'hint.payments': 'Deposits that arrived, and receipts of deposits, vouchers, purchases and renewals',
  'hint.subscription-status': 'Ready, could not be set up, ended, days added',
  'hint.announcements': 'News and offers from us',
  'hint.new-device': 'A security notice: stays on by e-mail or in the portal',
  'hint.low-balance': 'When your balance falls under the threshold you set below',
  'hint.transfers': 'Another client sent you balance',
  channelOf: '{kind}: {channel}',
  telegramNotLinked: 'Telegram messages start once you link a Telegram account.',
  telegramOff: 'Telegram is not available on this service.',
  leadDays: 'First renewal reminder (days before)',
  leadDaysHint: "1 to 60. Empty: the service's usual days.",
  threshold: 'Low-balance threshold',
  thresholdHint: 'A notice when your balance falls under this amount. Empty: no notice.',
  quietHours: 'Quiet hours for Telegram',
  quietHoursHint:
    'No Telegram messages during these hours; they arrive when the quiet hours end. E-mail and the portal are not affected.',
  quietFrom: 'From',
  quietTo: 'To',
  timeZone: 'Time zone',
  save: 'Save settings',
  saving: 'Saving…',
  saved: 'Notification settings saved',
  telegramTitle: 'Telegram',
  telegramIntro: 'Get your notifications in Telegram too, through our bot.',
  telegramNotConfigured: 'Telegram is not available on this service right now.',
  telegramNone: 'No Telegram account is linked.',
  telegramLink: 'Link Telegram',
  telegramOpening: 'Opening Telegram…',
  telegramWaiting: 'In Telegram, press Start in the chat with the bot. The link is valid until {time}.',
  telegramOpen: 'Open Telegram',
  telegramChecking: 'Waiting for the bot to confirm…',
  telegramExpired: 'The link expired before the account was linked. You can ask for a new one.',
  telegramLinkedAs: 'Linked to {username}',
  telegramLinkedNoName: 'A Telegram account is linked',
  telegramLinkedOn: 'Linked on {date}',
  telegramLinkedNow: 'Telegram linked',
  telegramUnlink: 'Unlink Telegram',
  telegramUnlinkTitle: 'Unlink Telegram?',
  telegramUnlinkText: 'No more messages will go to Telegram. You can link it again at any time.',
  telegramUnlinked: 'Telegram unlinked',
};

export const NOTIFICATION_SETTINGS_MESSAGES: DictionaryPart<NotificationSettingsKey> = { he, en };

/** The hint under a kind's name, keyed so that a kind without one fails the type check. */
export function kindHintKey(kind: ClientNotificationPreferenceKind): NotificationSettingsKey {
  return `hint.${kind}`;
}
