import type { Language } from '@kupa/proto';

/**
 * The change of e-mail's words (docs/adr/0100-change-of-e-mail.md). They live with the profile form and the link's
 * page, both loaded on demand, rather than in the app's dictionaries, which the first screen carries (ADR 0048).
 */
export const EMAIL_CHANGE_TEXT = {
  he: {
    title: 'שינוי כתובת הדוא״ל',
    intro: 'נשלח קישור לכתובת החדשה. הכתובת משתנה רק כשפותחים אותו, ועד אז הכניסה היא עם הכתובת הנוכחית.',
    newEmail: 'כתובת דוא״ל חדשה',
    currentPassword: 'סיסמה נוכחית',
    submit: 'שליחת קישור',
    sent: (email: string) => `שלחנו קישור אל ${email}. פתחו אותו בתוך שעה כדי להשלים את השינוי.`,
    pageTitle: 'אישור כתובת דוא״ל חדשה',
    confirming: 'מאשרים את הכתובת החדשה…',
    confirmed: (email: string) => `כתובת הדוא״ל שונתה ל-${email}. כל החיבורים נותקו: היכנסו עם הכתובת החדשה.`,
    failed: 'לא הצלחנו לשנות את כתובת הדוא״ל',
  },
  en: {
    title: 'Change e-mail address',
    intro:
      'We send a link to the new address. The address changes only when it is opened; until then, sign in with the current one.',
    newEmail: 'New e-mail address',
    currentPassword: 'Current password',
    submit: 'Send link',
    sent: (email: string) => `We sent a link to ${email}. Open it within an hour to finish the change.`,
    pageTitle: 'Confirm new e-mail address',
    confirming: 'Confirming the new address…',
    confirmed: (email: string) =>
      `Your e-mail address is now ${email}. Every session was ended: sign in with the new address.`,
    failed: 'We could not change the e-mail address',
  },
} as const satisfies Record<Language, Record<string, string | ((email: string) => string)>>;
