import { type ClientNotification, signInPlace } from '@kupa/proto';
import { formatDate, formatDollars } from '../../lib/format';
import type { Translate } from '../../lib/i18n/i18n';
import type { Language } from '@kupa/proto';
import { extensionReason } from '../subscriptions/extension-text';

export interface NotificationText {
  title: string;
  body: string;
  /** The action's label: the top-up of the amount missing, or renewing the subscription; none for an announcement. */
  action: string | null;
}

/**
 * The new-device notice's words (ADR 0099), kept here rather than in the app's dictionaries: this module loads with
 * the signed-in screens, the dictionaries with the first screen, whose budget is spent (ADR 0048).
 */
const NEW_DEVICE_TEXT = {
  he: (device: string, place: string) => ({
    title: `מכשיר חדש נכנס לחשבון שלך: ${device}`,
    body: `מ${place}. אם זה לא את/ה, נתקו אותו בקישור שבמייל או ב״התחברויות פעילות״ בפרופיל, והחליפו את הסיסמה.`,
  }),
  en: (device: string, place: string) => ({
    title: `A new device signed in to your account: ${device}`,
    body: `From ${place}. If it was not you, end it with the mail's link or under Active sessions in your profile, and change your password.`,
  }),
} as const;

/** What a notification says, from its kind and the figures it was sent with, in the language of the screen. */
export function notificationText(notification: ClientNotification, t: Translate, lang: Language): NotificationText {
  const { params } = notification;
  const plan = params.planName ?? t('notifications.trial');
  const amount = formatDollars((params.missingMinor ?? 0) / 100, lang);
  const date = (iso: string | undefined) => (iso ? formatDate(iso, lang) : '');
  switch (notification.kind) {
    case 'renewal-short':
      return {
        title: t('notifications.renewalShort.title', { amount, plan }),
        body: t('notifications.renewalShort.body', { date: date(params.paymentDate) }),
        action: t('notifications.topUp', { amount }),
      };
    case 'renewal-failed': {
      // The saved card was tried first (ADR 0086): say why it did not pay, then what the balance lacks.
      const card =
        params.cardFailure === 'DECLINED'
          ? `${t('notifications.renewalFailed.cardDeclined')} `
          : params.cardFailure === 'REQUIRES_ACTION'
            ? `${t('notifications.renewalFailed.cardNeedsHolder')} `
            : '';
      return {
        title: t('notifications.renewalFailed.title', { plan }),
        body: card + t('notifications.renewalFailed.body', { amount, date: date(params.graceDeadline) }),
        action: t('notifications.topUp', { amount }),
      };
    }
    case 'grace-started':
      return {
        title: t('notifications.graceStarted.title', { plan }),
        body: t('notifications.graceStarted.body', { amount, date: date(params.graceDeadline) }),
        // Nothing missing (a top-up came since): the renewal itself, on the subscription's page.
        action: (params.missingMinor ?? 0) > 0 ? t('notifications.topUp', { amount }) : t('notifications.renew'),
      };
    case 'extended': {
      // Days added without a payment (ADR 0089): the reason staff chose for the client, never who added them.
      const reason = extensionReason(params.source, params.reason ?? '', t);
      return {
        title:
          params.days === 1
            ? t('notifications.extended.titleOneDay', { plan, reason })
            : t('notifications.extended.title', { plan, days: params.days ?? 0, reason }),
        body: t('notifications.extended.body', { date: date(params.endDate) }),
        action: t('notifications.viewSubscription'),
      };
    }
    case 'ending':
      return {
        title: t('notifications.ending.title', { plan, date: date(params.endDate) }),
        body: t('notifications.ending.body'),
        action: t('notifications.renew'),
      };
    case 'new-device':
      // A sign-in from a device not seen before (ADR 0099): which, from where; the mail's link ends that session.
      return { ...NEW_DEVICE_TEXT[lang](params.device ?? '', signInPlace(params, lang)), action: null };
    case 'announcement':
      // An admin's broadcast (ADR 0091): its own words, already in the client's language; nothing to act on.
      return { title: params.subject ?? '', body: params.body ?? '', action: null };
  }
}
