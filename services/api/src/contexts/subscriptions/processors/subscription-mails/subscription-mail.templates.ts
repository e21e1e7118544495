import {
  type DepositPurchaseKind,
  type ErrorCode,
  formatErrorMessage,
  formatMoney,
  LANGUAGE_LOCALES,
  type Language,
} from '@kupa/proto';
import { type RenderedMail, renderLinkMail } from '../../../../platform/mail/templates';

/**
 * The mails a subscription's life sends its owner (docs/product.md, Subscriptions), each in the owner's language.
 * Amounts are cents and dates ISO instants, formatted at send time; dates are calendar days in UTC, the zone every
 * period boundary is computed in.
 */
export type SubscriptionMail =
  | { kind: 'activated'; planName: string | null; login: string; endDate: string }
  | { kind: 'renewed'; planName: string | null; endDate: string; chargedMinor: number; discountPercent: number }
  | {
      kind: 'balance-too-low';
      planName: string | null;
      priceMinor: number;
      missingMinor: number;
      endDate: string;
    }
  /** The old single "ends soon" mail: only rows queued before the `ending` reminders replaced it are still sent. */
  | { kind: 'expiring'; planName: string | null; endDate: string; recurrent: boolean }
  /** Reminders (ADR 0083): a renewal the balance will not cover, a failed one, the end of one that will not renew. */
  | { kind: 'renewal-short'; planName: string | null; missingMinor: number; paymentDate: string }
  | {
      kind: 'renewal-failed';
      planName: string | null;
      priceMinor: number;
      missingMinor: number;
      endDate: string;
      graceDeadline: string;
      /** The saved card was tried first and failed (ADR 0086); absent when no card was tried. */
      cardFailure?: 'DECLINED' | 'REQUIRES_ACTION';
    }
  | { kind: 'ending'; planName: string | null; endDate: string; recurrent: boolean }
  /** Lapsed into the grace window (ADR 0081): paused, the login kept until `graceEndsAt`. */
  | {
      kind: 'grace-started';
      planName: string | null;
      login: string;
      missingMinor: number;
      endDate: string;
      graceEndsAt: string;
    }
  /** `login` is absent on rows queued before the mail named the released login. */
  | { kind: 'expired'; planName: string | null; endDate: string; login?: string }
  | { kind: 'refunded'; planName: string | null; refundedMinor: number; loginTaken: boolean }
  | {
      /** A crypto deposit arrived, but the purchase or renewal it paid for could not follow (ADR 0030). */
      kind: 'deposit-purchase-failed';
      depositPaymentId: number;
      planName: string | null;
      purchaseKind: DepositPurchaseKind;
      receivedMinor: number;
      /** The money came by card checkout rather than a crypto deposit (absent: crypto). */
      byCard?: boolean;
      errorCode: ErrorCode;
    };

export interface SubscriptionMailContext {
  firstName: string;
  /** Where the owner sees the subscription in the client app. */
  link: string;
  /** The subscription's page, where it is renewed, when the main link is elsewhere (the top-up). */
  renewLink?: string;
}

function day(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(iso));
}

function money(amountMinor: number, language: Language): string {
  return formatMoney(amountMinor, LANGUAGE_LOCALES[language]);
}

interface Wording {
  subject: string;
  paragraphs: string[];
}

function english(mail: SubscriptionMail, renewLink?: string): Wording {
  const renewAt = renewLink ? `: ${renewLink}` : '';
  const plan = mail.planName === null ? 'trial' : `${mail.planName} package`;
  const on = (iso: string) => day(iso, 'en');
  switch (mail.kind) {
    case 'activated':
      return {
        subject: `Your ${plan} is ready`,
        paragraphs: [
          `Your ${plan} is active at the streaming service. Sign in there with the login ${mail.login}.`,
          `It runs until ${on(mail.endDate)}.`,
        ],
      };
    case 'renewed':
      return {
        subject: `Your ${plan} is renewed`,
        paragraphs: [
          `We renewed your ${plan} until ${on(mail.endDate)} and took ${money(mail.chargedMinor, 'en')} from your balance` +
            (mail.discountPercent > 0 ? `, with your ${mail.discountPercent}% referral discount.` : '.'),
        ],
      };
    case 'balance-too-low':
      return {
        subject: `Top up to keep your ${plan}`,
        paragraphs: [
          `We could not renew your ${plan}: the renewal costs ${money(mail.priceMinor, 'en')} and your balance is ${money(mail.missingMinor, 'en')} short.`,
          `We will try again every day until the package ends on ${on(mail.endDate)}. Top up before then to keep it.`,
        ],
      };
    case 'expiring':
      return {
        subject: `Your ${plan} ends on ${on(mail.endDate)}`,
        paragraphs: [
          `Your ${plan} ends on ${on(mail.endDate)} and will not renew by itself.`,
          mail.recurrent
            ? 'Its automatic renewal is off. To keep it, renew it from your subscriptions page before then.'
            : 'To keep watching, renew it before then.',
        ],
      };
    case 'renewal-short':
      return {
        subject: `Top up ${money(mail.missingMinor, 'en')} to renew your ${plan}`,
        paragraphs: [
          `Your ${plan} renews automatically on ${on(mail.paymentDate)}, but your balance is ${money(mail.missingMinor, 'en')} short of the renewal.`,
          'Top up that amount before then to keep it running.',
        ],
      };
    case 'renewal-failed':
      return {
        subject: `Top up to keep your ${plan}`,
        paragraphs: [
          ...(mail.cardFailure === 'DECLINED'
            ? ['Your saved card was declined for this renewal, so we tried your balance.']
            : mail.cardFailure === 'REQUIRES_ACTION'
              ? [
                  'Your bank wants you to confirm the payment yourself, so your saved card could not be charged automatically. Top up by card with the link below and it renews.',
                ]
              : []),
          `We could not renew your ${plan}: the renewal costs ${money(mail.priceMinor, 'en')} and your balance is ${money(mail.missingMinor, 'en')} short.`,
          `It runs until ${on(mail.endDate)}; top up by ${on(mail.graceDeadline)} to renew it.`,
        ],
      };
    case 'ending':
      return {
        subject: `Your ${plan} ends on ${on(mail.endDate)}`,
        paragraphs: [
          `Your ${plan} ends on ${on(mail.endDate)} and will not renew by itself.`,
          mail.recurrent
            ? 'Its automatic renewal is off. To keep it, renew it before then.'
            : 'To keep watching, renew it before then.',
        ],
      };
    case 'grace-started':
      return {
        subject: `Your ${plan} is paused: renew it by ${on(mail.graceEndsAt)}`,
        paragraphs: [
          `We could not renew your ${plan}, so since ${on(mail.endDate)} its account at the streaming service is paused.`,
          `We keep the login ${mail.login} for you until ${on(mail.graceEndsAt)}: renew before then and you watch again with the same login.`,
          mail.missingMinor > 0
            ? `Your balance is ${money(mail.missingMinor, 'en')} short. Top up that amount and it renews by itself, or renew it from the package's page${renewAt}.`
            : `Renew it from the package's page${renewAt}.`,
          `After ${on(mail.graceEndsAt)} the package ends and the login is released.`,
        ],
      };
    case 'expired':
      return {
        subject: `Your ${plan} has ended`,
        paragraphs: [
          `Your ${plan} ended on ${on(mail.endDate)}.`,
          mail.login === undefined
            ? 'Its account at the streaming service is switched off and its login released.'
            : `Its account at the streaming service is switched off and the login ${mail.login} released.`,
          'You can buy a package again at any time.',
        ],
      };
    case 'refunded':
      return {
        subject: `We could not set up your ${plan}`,
        paragraphs: [
          mail.loginTaken
            ? `The streaming service already has an account with the login you chose, so your ${plan} could not be set up.`
            : `The streaming service could not set up your ${plan}.`,
          mail.refundedMinor > 0
            ? `We returned ${money(mail.refundedMinor, 'en')} to your balance. You can buy the package again, with another login if needed.`
            : 'You can try again, with another login if needed.',
        ],
      };
    case 'deposit-purchase-failed':
      return {
        subject: mail.purchaseKind === 'BUY' ? `We could not buy your ${plan}` : `We could not renew your ${plan}`,
        paragraphs: [
          `Your ${mail.byCard ? 'card payment' : 'crypto deposit'} of ${money(mail.receivedMinor, 'en')} arrived and ` +
            `is on your balance, but the ` +
            `${mail.purchaseKind === 'BUY' ? 'purchase' : 'renewal'} it was meant for could not follow: ` +
            `${formatErrorMessage(mail.errorCode, 'en')}.`,
          mail.purchaseKind === 'BUY'
            ? 'Nothing was charged for it. You can buy a package with your balance at any time.'
            : 'Nothing was charged for it. You can renew it with your balance from your subscriptions page.',
        ],
      };
  }
}

function hebrew(mail: SubscriptionMail, renewLink?: string): Wording {
  const renewAt = renewLink ? `: ${renewLink}` : '';
  const plan = mail.planName === null ? 'תקופת הניסיון' : `החבילה ${mail.planName}`;
  const on = (iso: string) => day(iso, 'he');
  switch (mail.kind) {
    case 'activated':
      return {
        subject: `${plan} מוכנה`,
        paragraphs: [
          `${plan} פעילה בשירות הסטרימינג. התחברו שם עם שם המשתמש ${mail.login}.`,
          `היא בתוקף עד ${on(mail.endDate)}.`,
        ],
      };
    case 'renewed':
      return {
        subject: `${plan} חודשה`,
        paragraphs: [
          `חידשנו את ${plan} עד ${on(mail.endDate)} וחייבנו ${money(mail.chargedMinor, 'he')} מהיתרה שלך` +
            (mail.discountPercent > 0 ? `, כולל הנחת הפניות של ${mail.discountPercent}%.` : '.'),
        ],
      };
    case 'balance-too-low':
      return {
        subject: `כדי לשמור על ${plan} יש להטעין יתרה`,
        paragraphs: [
          `לא הצלחנו לחדש את ${plan}: החידוש עולה ${money(mail.priceMinor, 'he')} וחסרים ביתרה שלך ${money(mail.missingMinor, 'he')}.`,
          `ננסה שוב בכל יום עד שהחבילה תסתיים ב-${on(mail.endDate)}. הטעינו יתרה לפני כן כדי לשמור עליה.`,
        ],
      };
    case 'expiring':
      return {
        subject: `${plan} מסתיימת ב-${on(mail.endDate)}`,
        paragraphs: [
          `${plan} מסתיימת ב-${on(mail.endDate)} ולא תתחדש מעצמה.`,
          mail.recurrent
            ? 'החידוש האוטומטי שלה כבוי. כדי לשמור עליה, חדשו אותה מדף המנויים לפני כן.'
            : 'כדי להמשיך לצפות, חדשו אותה לפני כן.',
        ],
      };
    case 'renewal-short':
      return {
        subject: `כדי לחדש את ${plan} יש להטעין ${money(mail.missingMinor, 'he')}`,
        paragraphs: [
          `${plan} מתחדשת אוטומטית ב-${on(mail.paymentDate)}, אבל ביתרה שלך חסרים ${money(mail.missingMinor, 'he')} לחידוש.`,
          'הטעינו את הסכום הזה לפני כן כדי שהחבילה תמשיך.',
        ],
      };
    case 'renewal-failed':
      return {
        subject: `כדי לשמור על ${plan} יש להטעין יתרה`,
        paragraphs: [
          ...(mail.cardFailure === 'DECLINED'
            ? ['הכרטיס השמור שלך נדחה בחידוש הזה, ולכן ניסינו את היתרה.']
            : mail.cardFailure === 'REQUIRES_ACTION'
              ? [
                  'הבנק שלך מבקש שתאשרו את התשלום בעצמכם, ולכן לא ניתן היה לחייב את הכרטיס השמור אוטומטית. הטעינו בכרטיס דרך הקישור שלמטה והחבילה תתחדש.',
                ]
              : []),
          `לא הצלחנו לחדש את ${plan}: החידוש עולה ${money(mail.priceMinor, 'he')} וחסרים ביתרה שלך ${money(mail.missingMinor, 'he')}.`,
          `היא בתוקף עד ${on(mail.endDate)}; הטעינו יתרה עד ${on(mail.graceDeadline)} כדי לחדש אותה.`,
        ],
      };
    case 'ending':
      return {
        subject: `${plan} מסתיימת ב-${on(mail.endDate)}`,
        paragraphs: [
          `${plan} מסתיימת ב-${on(mail.endDate)} ולא תתחדש מעצמה.`,
          mail.recurrent
            ? 'החידוש האוטומטי שלה כבוי. כדי לשמור עליה, חדשו אותה לפני כן.'
            : 'כדי להמשיך לצפות, חדשו אותה לפני כן.',
        ],
      };
    case 'grace-started':
      return {
        subject: `${plan} מושהית: חדשו אותה עד ${on(mail.graceEndsAt)}`,
        paragraphs: [
          `לא הצלחנו לחדש את ${plan}, ולכן מ-${on(mail.endDate)} החשבון שלה בשירות הסטרימינג מושהה.`,
          `אנחנו שומרים עבורך את שם המשתמש ${mail.login} עד ${on(mail.graceEndsAt)}: חדשו לפני כן ותמשיכו לצפות עם אותו שם משתמש.`,
          mail.missingMinor > 0
            ? `ביתרה שלך חסרים ${money(mail.missingMinor, 'he')}. הטעינו את הסכום והיא תתחדש מעצמה, או חדשו אותה מדף החבילה${renewAt}.`
            : `חדשו אותה מדף החבילה${renewAt}.`,
          `אחרי ${on(mail.graceEndsAt)} החבילה תסתיים ושם המשתמש ישוחרר.`,
        ],
      };
    case 'expired':
      return {
        subject: `${plan} הסתיימה`,
        paragraphs: [
          `${plan} הסתיימה ב-${on(mail.endDate)}.`,
          mail.login === undefined
            ? 'החשבון שלה בשירות הסטרימינג כובה ושם המשתמש שוחרר.'
            : `החשבון שלה בשירות הסטרימינג כובה ושם המשתמש ${mail.login} שוחרר.`,
          'אפשר לרכוש חבילה מחדש בכל עת.',
        ],
      };
    case 'refunded':
      return {
        subject: `לא הצלחנו להקים את ${plan}`,
        paragraphs: [
          mail.loginTaken
            ? `בשירות הסטרימינג כבר קיים חשבון עם שם המשתמש שבחרת, ולכן לא ניתן היה להקים את ${plan}.`
            : `שירות הסטרימינג לא הצליח להקים את ${plan}.`,
          mail.refundedMinor > 0
            ? `החזרנו ${money(mail.refundedMinor, 'he')} ליתרה שלך. אפשר לרכוש את החבילה שוב, עם שם משתמש אחר אם צריך.`
            : 'אפשר לנסות שוב, עם שם משתמש אחר אם צריך.',
        ],
      };
    case 'deposit-purchase-failed':
      return {
        subject: mail.purchaseKind === 'BUY' ? `לא הצלחנו לרכוש את ${plan}` : `לא הצלחנו לחדש את ${plan}`,
        paragraphs: [
          `${mail.byCard ? 'התשלום שלך בכרטיס' : 'הפקדת הקריפטו שלך'} בסך ${money(mail.receivedMinor, 'he')} ` +
            `התקבל${mail.byCard ? '' : 'ה'} ונמצא${mail.byCard ? '' : 'ת'} ביתרה שלך, אבל ` +
            `${mail.purchaseKind === 'BUY' ? 'הרכישה' : 'החידוש'} שלשמה נועדה לא התאפשר: ` +
            `${formatErrorMessage(mail.errorCode, 'he')}.`,
          mail.purchaseKind === 'BUY'
            ? 'לא חויב דבר. אפשר לרכוש חבילה עם היתרה בכל עת.'
            : 'לא חויב דבר. אפשר לחדש את המנוי עם היתרה מדף המנויים.',
        ],
      };
  }
}

export function subscriptionMail(
  language: Language,
  mail: SubscriptionMail,
  context: SubscriptionMailContext,
): RenderedMail {
  const wording = language === 'en' ? english(mail, context.renewLink) : hebrew(mail, context.renewLink);
  return renderLinkMail({
    language,
    subject: wording.subject,
    greeting: language === 'en' ? `Hello ${context.firstName},` : `שלום ${context.firstName},`,
    paragraphs: wording.paragraphs,
    linkLabel: linkLabelOf(mail, language),
    link: context.link,
    footer: language === 'en' ? 'Kupa' : 'קופה',
  });
}

function linkLabelOf(mail: SubscriptionMail, language: Language): string {
  const en = language === 'en';
  switch (mail.kind) {
    case 'deposit-purchase-failed':
      return en ? 'See the payment' : 'לצפייה בתשלום';
    case 'grace-started':
      if (mail.missingMinor <= 0) return en ? 'Renew the package' : 'לחידוש החבילה';
      return en ? `Top up ${money(mail.missingMinor, 'en')}` : `להטענת ${money(mail.missingMinor, 'he')}`;
    case 'renewal-short':
    case 'renewal-failed':
      return en ? `Top up ${money(mail.missingMinor, 'en')}` : `להטענת ${money(mail.missingMinor, 'he')}`;
    case 'ending':
      return en ? 'Renew the package' : 'לחידוש החבילה';
    default:
      return en ? 'See the package' : 'לצפייה בחבילה';
  }
}
