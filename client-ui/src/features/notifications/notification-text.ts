import { type ClientNotification, clientEnumLabel, signInPlace, transferSenderText } from '@kupa/proto';
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

/**
 * The words of the balance's notices (ADR 0105), kept here like the new-device notice's, off the first screen. The
 * sender of a transfer is named as the payment's page names them: their name and profile ID, never their e-mail.
 */
const BALANCE_TEXT = {
  he: {
    deposit: (amount: string, method: string) => ({
      title: `הפקדה של ${amount} נכנסה ליתרה שלך`,
      body: `אמצעי התשלום: ${method}. הקבלה נשלחה אליך ומופיעה בדף הקבלות.`,
    }),
    transfer: (amount: string, sender: string) => ({
      title: `קיבלת העברה של ${amount}`,
      body: `מאת ${sender}. הסכום נוסף ליתרה שלך.`,
    }),
    lowBalance: (balance: string, threshold: string) => ({
      title: `היתרה שלך ירדה אל מתחת ל-${threshold}`,
      body: `היתרה עומדת על ${balance}. הטעינו אותה כדי שהחידושים הבאים יעברו.`,
    }),
    claimRejected: (amount: string, reason: string) => ({
      title: `הדיווח שלך על העברה של ${amount} נדחה`,
      body: `הסיבה: ${reason}. אם הכסף נשלח, כתבו לנו ונבדוק שוב.`,
    }),
    viewClaims: 'לדיווחים שלך',
    viewPayment: 'לפרטי התשלום',
  },
  en: {
    deposit: (amount: string, method: string) => ({
      title: `A deposit of ${amount} reached your balance`,
      body: `Payment method: ${method}. Its receipt was sent to you and is on your receipts page.`,
    }),
    transfer: (amount: string, sender: string) => ({
      title: `You received a transfer of ${amount}`,
      body: `From ${sender}. It was added to your balance.`,
    }),
    lowBalance: (balance: string, threshold: string) => ({
      title: `Your balance fell under ${threshold}`,
      body: `It is now ${balance}. Top it up so that your next renewals go through.`,
    }),
    claimRejected: (amount: string, reason: string) => ({
      title: `Your claim of a ${amount} transfer was rejected`,
      body: `The reason: ${reason}. If you did send it, write to us and we will look again.`,
    }),
    viewClaims: 'Your transfer claims',
    viewPayment: 'View the payment',
  },
} as const;

function senderOf(notification: ClientNotification): string {
  return transferSenderText(notification.params.senderName, notification.params.senderProfileId);
}

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
    case 'deposit-credited': {
      const method = params.method ? clientEnumLabel('paymentMethod', params.method, lang) : '';
      const money = formatDollars((params.amountMinor ?? 0) / 100, lang);
      return { ...BALANCE_TEXT[lang].deposit(money, method), action: BALANCE_TEXT[lang].viewPayment };
    }
    case 'transfer-received': {
      const money = formatDollars((params.amountMinor ?? 0) / 100, lang);
      return { ...BALANCE_TEXT[lang].transfer(money, senderOf(notification)), action: BALANCE_TEXT[lang].viewPayment };
    }
    case 'low-balance': {
      const balance = formatDollars((params.balanceMinor ?? 0) / 100, lang);
      const threshold = formatDollars((params.thresholdMinor ?? 0) / 100, lang);
      // The one-click top-up back to the threshold, as the renewal reminders' top-up (ADR 0083).
      const topUp = formatDollars(Math.max(0, (params.thresholdMinor ?? 0) - (params.balanceMinor ?? 0)) / 100, lang);
      return {
        ...BALANCE_TEXT[lang].lowBalance(balance, threshold),
        action: t('notifications.topUp', { amount: topUp }),
      };
    }
    case 'deposit-claim-rejected': {
      // Staff found no transfer as claimed (ADR 0112): the amount claimed and their reason.
      const money = formatDollars((params.amountMinor ?? 0) / 100, lang);
      return {
        ...BALANCE_TEXT[lang].claimRejected(money, params.reason ?? ''),
        action: BALANCE_TEXT[lang].viewClaims,
      };
    }
  }
}
