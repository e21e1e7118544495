import type { Language, UserSessionView } from '@kupa/proto';

/**
 * The sessions section's words (ADR 0099). They live with the section, which loads on demand, rather than in the
 * app's dictionaries, which the first screen carries (ADR 0048: the first screen's budget is nearly spent).
 */
export const SESSIONS_TEXT = {
  he: {
    title: 'התחברויות פעילות',
    hint: 'המכשירים שמחוברים כעת לחשבון שלך. אם יש כאן מכשיר שאינך מזהה, נתקו אותו והחליפו את הסיסמה.',
    thisDevice: 'המכשיר הזה',
    unknownBrowser: 'דפדפן לא מזוהה',
    address: 'כתובת',
    started: 'התחברות',
    lastUsed: 'שימוש אחרון',
    end: 'ניתוק',
    endOthers: 'ניתוק כל שאר ההתחברויות',
    endedOthers: (count: number) => (count === 1 ? 'התחברות אחת נותקה' : `${count} התחברויות נותקו`),
    none: 'אין התחברויות אחרות.',
    desktop: 'מחשב',
    mobile: 'טלפון',
    tablet: 'טאבלט',
    other: 'מכשיר',
    on: 'ב-',
  },
  en: {
    title: 'Active sessions',
    hint: "The devices signed in to your account now. If you don't recognise one, end it and change your password.",
    thisDevice: 'This device',
    unknownBrowser: 'Unknown browser',
    address: 'Address',
    started: 'Signed in',
    lastUsed: 'Last used',
    end: 'End',
    endOthers: 'End all other sessions',
    endedOthers: (count: number) => (count === 1 ? '1 session ended' : `${count} sessions ended`),
    none: 'No other sessions.',
    desktop: 'Computer',
    mobile: 'Phone',
    tablet: 'Tablet',
    other: 'Device',
    on: 'on ',
  },
} as const;

/** "Chrome 131 on Windows 10", or the kind of device when the browser told nothing. */
export function sessionDeviceName(session: UserSessionView, lang: Language): string {
  const words = SESSIONS_TEXT[lang];
  if (!session.browser && !session.os) return `${words[session.deviceType]} · ${words.unknownBrowser}`;
  if (!session.os) return session.browser ?? words.unknownBrowser;
  if (!session.browser) return session.os;
  return lang === 'he' ? `${session.browser} ב-${session.os}` : `${session.browser} on ${session.os}`;
}
