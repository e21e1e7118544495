import {
  ENUM_VALUES,
  enumLabel,
  type EnumName,
  type ErrorCode,
  formatErrorMessage,
  formatMoney,
  LANGUAGE_LOCALES,
  type Language,
  type ReceiptKind,
  transferSenderText,
} from '@kupa/proto';
import { receiptKindText, receiptTitle } from '@kupa/proto/dist/receipt-lines';

/**
 * What a notice says in Telegram, one place for every kind (docs/adr/0104-telegram-delivery.md): rendered when it is
 * sent, in the person's language, from the kind and the params its writer recorded. Plain text (no parse mode, so
 * nothing a person or an admin wrote can break the markup); short, since a chat is read on a phone; the portal link
 * wherever the mail has one. Never a password, never a token: the params hold none.
 */
export const TELEGRAM_NOTICE_KINDS = [
  // The subscription mails and reminders (ADR 0083), by the mail's kind.
  'activated',
  'renewed',
  'renewal-short',
  'renewal-failed',
  'ending',
  'grace-started',
  'expired',
  'refunded',
  'deposit-purchase-failed',
  // The receipt of a payment (ADR 0097).
  'receipt',
  // Money that arrived by itself, a transfer from another client, a balance under the person's threshold (ADR 0105).
  'deposit-credited',
  'transfer-received',
  'low-balance',
  // An admin's broadcast (ADR 0091).
  'announcement',
  // A sign-in from a new device (ADR 0099).
  'new-device',
  // Staff alerts (ADR 0106): to the staff chat and to staff who linked their own, never to a client.
  'staff-large-deposit',
  'staff-provisioning-failed',
  'staff-renewals-failed',
  'staff-processor-lagging',
  'staff-processor-recovered',
  'staff-manual-transfer-claim',
] as const;
export type TelegramNoticeKind = (typeof TELEGRAM_NOTICE_KINDS)[number];

/**
 * What a notice carries; each kind reads its own fields. Amounts in cents, dates ISO instants; `link` is a path of
 * the portal (`/subscriptions/…`), made absolute with `PUBLIC_URL` when rendered.
 */
export interface TelegramNoticeParams {
  link?: string;
  planName?: string | null;
  login?: string;
  endDate?: string;
  paymentDate?: string;
  graceDeadline?: string;
  graceEndsAt?: string;
  missingMinor?: number;
  chargedMinor?: number;
  discountPercent?: number;
  refundedMinor?: number;
  loginTaken?: boolean;
  receivedMinor?: number;
  purchaseKind?: 'BUY' | 'RENEW';
  byCard?: boolean;
  errorCode?: ErrorCode;
  cardFailure?: 'DECLINED' | 'REQUIRES_ACTION';
  /** `receipt`. */
  number?: number;
  receiptKind?: ReceiptKind;
  amountMinor?: number;
  /** `transfer-received`: the sender as the payment's page names them (name and profile ID), never their e-mail. */
  senderName?: string | null;
  senderProfileId?: string;
  /** `low-balance`: the balance after the event that crossed the threshold, and the threshold. */
  balanceMinor?: number;
  thresholdMinor?: number;
  /** `announcement`: already in the person's language. */
  subject?: string;
  body?: string;
  /** `new-device`. */
  device?: string;
  ipAddress?: string | null;
  countryCode?: string | null;
  /** Staff alerts: the client concerned, by name and profile ID (never their e-mail or a password). */
  clientName?: string | null;
  clientProfileId?: string | null;
  /** `staff-large-deposit`: the payment method, named as the console names it. */
  method?: string;
  /** `staff-renewals-failed`: what one pass of the renewal sweep did. */
  renewedCount?: number;
  shortCount?: number;
  erroredCount?: number;
  /** `staff-processor-lagging`, `staff-processor-recovered`. */
  processor?: string;
  lagEvents?: number;
  lagSeconds?: number;
  laggingSince?: string;
  /** `staff-manual-transfer-claim`: the client's note, flattened and cut short; never their e-mail. */
  note?: string | null;
  claimedAt?: string;
}

/** Telegram refuses a message longer than this. */
export const TELEGRAM_MESSAGE_MAX_CHARS = 4096;

interface Say {
  plan: string;
  /** The sender of a transfer, isolated so that a Latin name and its number keep their order in a Hebrew sentence. */
  sender: string;
  on: (iso: string | undefined) => string;
  money: (minor: number | undefined) => string;
  /** A staff alert's client: name and profile ID, or the profile ID alone. */
  client: string;
  /** A payment method as the console names it; an unknown one as it came. */
  method: string;
  /** A time of day and date, for a lag episode's start. */
  at: (iso: string | undefined) => string;
}

function sayer(params: TelegramNoticeParams, language: Language): Say {
  const locale = LANGUAGE_LOCALES[language];
  const trial = language === 'he' ? 'תקופת הניסיון' : 'trial';
  const named = language === 'he' ? `החבילה ${params.planName}` : `${params.planName} package`;
  return {
    plan: params.planName === null || params.planName === undefined ? trial : named,
    sender: transferSenderText(params.senderName, params.senderProfileId),
    on: (iso) =>
      iso
        ? new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
            new Date(iso),
          )
        : '',
    money: (minor) => formatMoney(minor ?? 0, locale),
    client: [params.clientName, params.clientProfileId ? `(${params.clientProfileId})` : null]
      .filter(Boolean)
      .join(' '),
    method: methodLabel(params.method, language),
    at: (iso) =>
      iso
        ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
            new Date(iso),
          ) + ' UTC'
        : '',
  };
}

function methodLabel(method: string | undefined, language: Language): string {
  if (!method) return '';
  const name: EnumName = 'paymentMethod';
  return ENUM_VALUES[name].includes(method) ? enumLabel(name, method, language) : method;
}

function english(kind: string, p: TelegramNoticeParams, s: Say): string {
  switch (kind as TelegramNoticeKind) {
    case 'activated':
      return `Your ${s.plan} is ready. Sign in at the streaming service with the login ${p.login}. It runs until ${s.on(p.endDate)}.`;
    case 'renewed':
      return `Your ${s.plan} is renewed until ${s.on(p.endDate)}; ${s.money(p.chargedMinor)} was taken from your balance.`;
    case 'renewal-short':
      return `Your ${s.plan} renews on ${s.on(p.paymentDate)}, but your balance is ${s.money(p.missingMinor)} short. Top up before then.`;
    case 'renewal-failed':
      return (
        (p.cardFailure === 'DECLINED' ? 'Your saved card was declined. ' : '') +
        (p.cardFailure === 'REQUIRES_ACTION' ? 'Your bank wants you to confirm the payment yourself. ' : '') +
        `We could not renew your ${s.plan}: your balance is ${s.money(p.missingMinor)} short. Top up by ${s.on(p.graceDeadline)} to renew it.`
      );
    case 'ending':
      return `Your ${s.plan} ends on ${s.on(p.endDate)} and will not renew by itself. Renew it before then to keep it.`;
    case 'grace-started':
      return (
        `Your ${s.plan} is paused. We keep the login ${p.login} until ${s.on(p.graceEndsAt)}: renew before then to watch again.` +
        ((p.missingMinor ?? 0) > 0 ? ` Your balance is ${s.money(p.missingMinor)} short.` : '')
      );
    case 'expired':
      return `Your ${s.plan} ended on ${s.on(p.endDate)}. You can buy a package again at any time.`;
    case 'refunded':
      return (
        `We could not set up your ${s.plan}.` +
        ((p.refundedMinor ?? 0) > 0 ? ` ${s.money(p.refundedMinor)} is back on your balance.` : '')
      );
    case 'deposit-purchase-failed':
      return (
        `Your ${p.byCard ? 'card payment' : 'crypto deposit'} of ${s.money(p.receivedMinor)} is on your balance, but the ` +
        `${p.purchaseKind === 'BUY' ? 'purchase' : 'renewal'} of your ${s.plan} could not follow` +
        (p.errorCode ? `: ${formatErrorMessage(p.errorCode, 'en')}.` : '.')
      );
    case 'receipt':
      return (
        `Your payment went through, thank you. ${receiptTitle(p.number ?? 0, 'en')}` +
        (p.receiptKind ? ` · ${receiptKindText(p.receiptKind, 'en')}: ${s.money(p.amountMinor)}` : '')
      );
    case 'deposit-credited':
      return `${s.money(p.amountMinor)} arrived on your Kupa balance. ${receiptTitle(p.number ?? 0, 'en')}.`;
    case 'transfer-received':
      return `${s.sender} sent you ${s.money(p.amountMinor)}; it is on your Kupa balance.`;
    case 'low-balance':
      return `Your Kupa balance is ${s.money(p.balanceMinor)}, under the ${s.money(p.thresholdMinor)} you asked us to watch. Top it up so that your renewals go through.`;
    case 'announcement':
      return `${p.subject ?? ''}\n\n${p.body ?? ''}`;
    case 'new-device':
      return (
        `New sign-in to your Kupa account: ${p.device ?? 'a device'}` +
        (p.ipAddress ? ` from ${p.ipAddress}${p.countryCode ? ` (${p.countryCode})` : ''}` : '') +
        '. Not you? End that session and change your password.'
      );
    case 'staff-large-deposit':
      return `Large deposit: ${s.money(p.amountMinor)} by ${s.method} for ${s.client}.`;
    case 'staff-provisioning-failed':
      return (
        `Provisioning failed for ${s.client}: the ${s.plan} could not be set up` +
        (p.loginTaken ? ' (the login is taken at the streaming service)' : '') +
        ((p.refundedMinor ?? 0) > 0 ? `; ${s.money(p.refundedMinor)} went back to the balance.` : '.')
      );
    case 'staff-renewals-failed':
      return (
        `Renewal sweep: ${p.renewedCount ?? 0} renewed, ${p.shortCount ?? 0} short of balance` +
        ((p.erroredCount ?? 0) > 0 ? `, ${p.erroredCount} failed with an error (see the log).` : '.')
      );
    case 'staff-processor-lagging':
      return `Processor ${p.processor} is lagging: ${p.lagEvents ?? 0} events behind, the oldest ${Math.round(p.lagSeconds ?? 0)} s old. Is a worker running?`;
    case 'staff-processor-recovered':
      return `Processor ${p.processor} has caught up (lagging since ${s.at(p.laggingSince)}).`;
    case 'staff-manual-transfer-claim':
      return (
        `Manual transfer claimed: ${s.client} says they sent ${s.money(p.amountMinor)} with their profile ID as the reference.` +
        (p.note ? ` Note: ${p.note}` : '') +
        ' Settle it with the manual deposit once the money is in, or reject it.'
      );
    default:
      return 'You have a new notice in the portal.';
  }
}

function hebrew(kind: string, p: TelegramNoticeParams, s: Say): string {
  switch (kind as TelegramNoticeKind) {
    case 'activated':
      return `${s.plan} מוכנה. התחברו בשירות הסטרימינג עם שם המשתמש ${p.login}. בתוקף עד ${s.on(p.endDate)}.`;
    case 'renewed':
      return `${s.plan} חודשה עד ${s.on(p.endDate)}; חויבו ${s.money(p.chargedMinor)} מהיתרה שלך.`;
    case 'renewal-short':
      return `${s.plan} מתחדשת ב-${s.on(p.paymentDate)}, אבל ביתרה שלך חסרים ${s.money(p.missingMinor)}. הטעינו לפני כן.`;
    case 'renewal-failed':
      return (
        (p.cardFailure === 'DECLINED' ? 'הכרטיס השמור שלך נדחה. ' : '') +
        (p.cardFailure === 'REQUIRES_ACTION' ? 'הבנק שלך מבקש שתאשרו את התשלום בעצמכם. ' : '') +
        `לא הצלחנו לחדש את ${s.plan}: ביתרה שלך חסרים ${s.money(p.missingMinor)}. הטעינו עד ${s.on(p.graceDeadline)} כדי לחדש אותה.`
      );
    case 'ending':
      return `${s.plan} מסתיימת ב-${s.on(p.endDate)} ולא תתחדש מעצמה. חדשו אותה לפני כן כדי לשמור עליה.`;
    case 'grace-started':
      return (
        `${s.plan} מושהית. אנחנו שומרים את שם המשתמש ${p.login} עד ${s.on(p.graceEndsAt)}: חדשו לפני כן כדי להמשיך לצפות.` +
        ((p.missingMinor ?? 0) > 0 ? ` ביתרה שלך חסרים ${s.money(p.missingMinor)}.` : '')
      );
    case 'expired':
      return `${s.plan} הסתיימה ב-${s.on(p.endDate)}. אפשר לרכוש חבילה מחדש בכל עת.`;
    case 'refunded':
      return (
        `לא הצלחנו להקים את ${s.plan}.` +
        ((p.refundedMinor ?? 0) > 0 ? ` ${s.money(p.refundedMinor)} הוחזרו ליתרה שלך.` : '')
      );
    case 'deposit-purchase-failed':
      return (
        `${p.byCard ? 'התשלום שלך בכרטיס' : 'הפקדת הקריפטו שלך'} בסך ${s.money(p.receivedMinor)} ` +
        `נמצא${p.byCard ? '' : 'ת'} ביתרה שלך, אבל ` +
        `${p.purchaseKind === 'BUY' ? 'הרכישה' : 'החידוש'} של ${s.plan} לא התאפשר` +
        (p.errorCode ? `: ${formatErrorMessage(p.errorCode, 'he')}.` : '.')
      );
    case 'receipt':
      return (
        `התשלום התקבל, תודה. ${receiptTitle(p.number ?? 0, 'he')}` +
        (p.receiptKind ? ` · ${receiptKindText(p.receiptKind, 'he')}: ${s.money(p.amountMinor)}` : '')
      );
    case 'deposit-credited':
      return `${s.money(p.amountMinor)} נכנסו ליתרה שלך ב-Kupa. ${receiptTitle(p.number ?? 0, 'he')}.`;
    case 'transfer-received':
      return `${s.sender} העביר/ה לך ${s.money(p.amountMinor)}; הסכום נמצא ביתרה שלך ב-Kupa.`;
    case 'low-balance':
      return `היתרה שלך ב-Kupa היא ${s.money(p.balanceMinor)}, מתחת לסף ${s.money(p.thresholdMinor)} שביקשת שנעקוב אחריו. הטעינו אותה כדי שהחידושים יעברו.`;
    case 'announcement':
      return `${p.subject ?? ''}\n\n${p.body ?? ''}`;
    case 'new-device':
      return (
        `כניסה חדשה לחשבון Kupa שלך: ${p.device ?? 'מכשיר'}` +
        (p.ipAddress ? ` מהכתובת ${p.ipAddress}${p.countryCode ? ` (${p.countryCode})` : ''}` : '') +
        '. לא אתם? סיימו את החיבור הזה והחליפו סיסמה.'
      );
    case 'staff-large-deposit':
      return `הפקדה גדולה: ${s.money(p.amountMinor)} ב${s.method} עבור ${s.client}.`;
    case 'staff-provisioning-failed':
      return (
        `ההקמה נכשלה עבור ${s.client}: לא ניתן היה להקים את ${s.plan}` +
        (p.loginTaken ? ' (שם המשתמש תפוס בשירות הסטרימינג)' : '') +
        ((p.refundedMinor ?? 0) > 0 ? `; ${s.money(p.refundedMinor)} הוחזרו ליתרה.` : '.')
      );
    case 'staff-renewals-failed':
      return (
        `סבב החידושים: ${p.renewedCount ?? 0} חודשו, ל-${p.shortCount ?? 0} חסרה יתרה` +
        ((p.erroredCount ?? 0) > 0 ? `, ${p.erroredCount} נכשלו בשגיאה (ראו ביומן).` : '.')
      );
    case 'staff-processor-lagging':
      return `המעבד ${p.processor} מפגר: ${p.lagEvents ?? 0} אירועים מאחור, הוותיק שבהם בן ${Math.round(p.lagSeconds ?? 0)} שניות. האם עובד (worker) רץ?`;
    case 'staff-processor-recovered':
      return `המעבד ${p.processor} הדביק את הפער (פיגר מאז ${s.at(p.laggingSince)}).`;
    case 'staff-manual-transfer-claim':
      return (
        `דיווח על העברה ידנית: ${s.client} מדווח/ת שהעביר/ה ${s.money(p.amountMinor)} עם מספר הפרופיל כאסמכתא.` +
        (p.note ? ` הערה: ${p.note}` : '') +
        ' כשהכסף מגיע, הסדירו בהפקדה ידנית, או דחו את הדיווח.'
      );
    default:
      return 'יש לך הודעה חדשה בפורטל.';
  }
}

/**
 * The message of a notice: its words, then the portal link (absolute). A kind this release does not know (recorded by
 * a newer replica during a rolling deploy) still says there is a notice in the portal rather than failing.
 */
export function telegramNoticeText(
  kind: string,
  params: TelegramNoticeParams,
  language: Language,
  publicUrl: string,
): string {
  const say = sayer(params, language);
  const words = language === 'en' ? english(kind, params, say) : hebrew(kind, params, say);
  const link = `${publicUrl}${params.link ?? '/notifications'}`;
  const text = `${words}\n${link}`;
  if (text.length <= TELEGRAM_MESSAGE_MAX_CHARS) return text;
  // A long announcement is cut; the link, which the portal's full text is behind, stays.
  return `${words.slice(0, TELEGRAM_MESSAGE_MAX_CHARS - link.length - 2)}…\n${link}`;
}
