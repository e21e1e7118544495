import { useCallback } from 'react';
import type { Language } from '@kupa/proto';
import { useLangStore } from '../stores/lang-store';

/**
 * The two-factor texts (docs/adr/0098-client-two-factor-and-step-up.md), kept out of the app's dictionaries: only the
 * lazily loaded screens that ask for a code import them, so the first screen's bundle does not carry them (ADR 0048).
 */
const he = {
  title: 'אימות דו-שלבי',
  intro:
    'כשהאימות הדו-שלבי מופעל, כניסה, העברת יתרה, שינוי סיסמה או דוא״ל וכיבוי האימות דורשים קוד מאפליקציית אימות בטלפון.',
  on: 'מופעל',
  off: 'כבוי',
  turnOn: 'הפעלה',
  turnOff: 'כיבוי',
  scan: 'סרקו את קוד ה-QR באפליקציית האימות (Google Authenticator, Microsoft Authenticator, 1Password…), או הקלידו את המפתח:',
  key: 'מפתח',
  code: 'קוד מאפליקציית האימות',
  codeHint: '6 ספרות, או אחד מקודי השחזור',
  confirm: 'אישור',
  recoveryTitle: 'קודי השחזור שלך',
  recoveryIntro:
    'שמרו את הקודים במקום בטוח. כל קוד פועל פעם אחת במקום קוד מהאפליקציה, אם הטלפון אבד. הם מוצגים רק עכשיו.',
  recoverySaved: 'שמרתי אותם',
  enabled: 'האימות הדו-שלבי הופעל',
  disabled: 'האימות הדו-שלבי כובה',
  turnOffIntro: 'הזינו קוד מאפליקציית האימות (או קוד שחזור) כדי לכבות את האימות הדו-שלבי.',
  stepUpHint: 'האימות הדו-שלבי מופעל: הזינו את הקוד הנוכחי מאפליקציית האימות.',
  signInTitle: 'הזינו את הקוד מאפליקציית האימות',
};

export type TwoFactorTextKey = keyof typeof he;

export const TWO_FACTOR_TEXT: Readonly<Record<Language, Readonly<Record<TwoFactorTextKey, string>>>> = {
  he,
  en: {
    title: 'Two-factor sign-in',
    intro:
      'With two-factor sign-in on, signing in, transferring balance, changing your password or e-mail and turning it off ask for a code from an authenticator app on your phone.',
    on: 'On',
    off: 'Off',
    turnOn: 'Turn on',
    turnOff: 'Turn off',
    scan: 'Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), or type the key:',
    key: 'Key',
    code: 'Code from the authenticator app',
    codeHint: '6 digits, or one of your recovery codes',
    confirm: 'Confirm',
    recoveryTitle: 'Your recovery codes',
    recoveryIntro:
      'Keep these codes somewhere safe. Each works once, instead of a code, if you lose your phone. They are shown only now.',
    recoverySaved: 'I saved them',
    enabled: 'Two-factor sign-in is on',
    disabled: 'Two-factor sign-in is off',
    turnOffIntro: 'Enter a code from your authenticator app (or a recovery code) to turn two-factor sign-in off.',
    stepUpHint: 'Two-factor sign-in is on: enter the current code from your authenticator app.',
    signInTitle: 'Enter the code from your authenticator app',
  },
};

/** The two-factor text of the current language. */
export function useTwoFactorText(): (key: TwoFactorTextKey) => string {
  const lang = useLangStore((state) => state.lang);
  return useCallback((key: TwoFactorTextKey) => TWO_FACTOR_TEXT[lang][key], [lang]);
}
