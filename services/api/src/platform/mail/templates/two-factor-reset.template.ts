import type { Language } from '@kupa/proto';
import { type RenderedMail, renderLinkMail } from './render';

export interface TwoFactorResetMailParams {
  firstName: string;
  /** The portal's profile, where two-factor sign-in is turned on again. */
  link: string;
}

/**
 * Tells a client or ambassador that staff reset their two-factor sign-in (docs/adr/0098-client-two-factor-and-step-up.md):
 * their sessions ended, the password alone signs in now, and whoever did not ask for it should say so.
 */
export function twoFactorResetMail(language: Language, params: TwoFactorResetMailParams): RenderedMail {
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'Your Kupa two-factor sign-in was reset',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [
        'Our staff turned off two-factor sign-in on your Kupa account, as asked after a lost phone. Your sessions ended; your password alone signs you in now.',
        'To protect your balance again, turn two-factor sign-in back on in your profile:',
      ],
      linkLabel: 'Open my profile',
      link: params.link,
      footer: 'If you did not ask for this, reply to this message or contact support at once.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'האימות הדו-שלבי שלך בקופה אופס',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [
      'הצוות שלנו כיבה את האימות הדו-שלבי בחשבון שלך בקופה, לבקשתך אחרי אובדן טלפון. החיבורים שלך הסתיימו, ועכשיו הכניסה היא בסיסמה בלבד.',
      'כדי להגן שוב על היתרה שלך, הפעילו מחדש את האימות הדו-שלבי בפרופיל:',
    ],
    linkLabel: 'לפרופיל שלי',
    link: params.link,
    footer: 'אם לא ביקשת זאת, השיבו להודעה זו או פנו מיד לתמיכה.',
  });
}
