import { LIMITS, type Language } from '@kupa/proto';
import { type RenderedMail, renderLinkMail } from './render';

/** An address inside a sentence keeps its left-to-right order in Hebrew text (a Unicode isolate, docs/product.md). */
function address(email: string): string {
  return `\u2066${email}\u2069`;
}

export interface EmailChangeLinkMailParams {
  firstName: string;
  newEmail: string;
  /** The portal's confirmation page with the single-use token. */
  link: string;
}

/**
 * Sent to the new address (docs/adr/0100-change-of-e-mail.md): opening the link proves the owner reads it, and only
 * then does the account move to it.
 */
export function emailChangeLinkMail(language: Language, params: EmailChangeLinkMailParams): RenderedMail {
  const hours = LIMITS.emailChangeTokenTtlHours;
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'Confirm your new Kupa e-mail address',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [
        `You asked to sign in to Kupa with ${address(params.newEmail)} from now on. Open this link within ${hours} hour to confirm it:`,
      ],
      linkLabel: 'Confirm my new address',
      link: params.link,
      footer: 'If you did not ask for this, ignore this message: nothing changes without the link.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'אישור כתובת הדוא״ל החדשה שלך בקופה',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [`ביקשת להיכנס לקופה מעכשיו עם ${address(params.newEmail)}. לאישור, פתחו את הקישור הבא בתוך שעה:`],
    linkLabel: 'אישור הכתובת החדשה',
    link: params.link,
    footer: 'אם לא ביקשת זאת, אפשר להתעלם מההודעה: בלי הקישור שום דבר לא משתנה.',
  });
}

export interface EmailChangeNoticeParams {
  firstName: string;
  newEmail: string;
  /** Where the owner acts: the portal's profile (a change asked for) or its sign-in page (the change done). */
  link: string;
}

/**
 * Sent to the current address when a change is asked for: the owner learns of it while the account still signs in
 * with this address, and can change the password, which retires the pending link.
 */
export function emailChangeRequestedMail(language: Language, params: EmailChangeNoticeParams): RenderedMail {
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'A change of your Kupa e-mail address was asked for',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [
        `Someone signed in to your Kupa account asked to move it to ${address(params.newEmail)}. Nothing changes until a link we sent there is opened.`,
        'If it was not you, change your password now: that cancels the link and signs everyone else out.',
      ],
      linkLabel: 'Open my profile',
      link: params.link,
      footer: 'If it was you, there is nothing to do here.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'התבקש שינוי של כתובת הדוא״ל שלך בקופה',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [
      `מישהו שמחובר לחשבון שלך בקופה ביקש להעביר אותו ל-${address(params.newEmail)}. שום דבר לא ישתנה עד שיפתחו את הקישור ששלחנו לשם.`,
      'אם זה לא היית את/ה, החליפו את הסיסמה עכשיו: זה מבטל את הקישור ומנתק את כל השאר.',
    ],
    linkLabel: 'לפרופיל שלי',
    link: params.link,
    footer: 'אם זה היית את/ה, אין צורך לעשות דבר.',
  });
}

/**
 * Sent to the previous address once the change is done: the account no longer signs in with it, so whoever did not
 * ask for it must reach support, who can see the change in the activity log.
 */
export function emailChangedMail(language: Language, params: EmailChangeNoticeParams): RenderedMail {
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'Your Kupa e-mail address was changed',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [
        `Your Kupa account signs in with ${address(params.newEmail)} from now on; this address no longer does. Every session of the account was ended.`,
      ],
      linkLabel: 'Sign in',
      link: params.link,
      footer: 'If you did not ask for this, reply to this message or contact support at once.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'כתובת הדוא״ל שלך בקופה שונתה',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [
      `מעכשיו הכניסה לחשבון שלך בקופה היא עם ${address(params.newEmail)}, ולא עוד עם הכתובת הזו. כל החיבורים לחשבון נותקו.`,
    ],
    linkLabel: 'כניסה',
    link: params.link,
    footer: 'אם לא ביקשת זאת, השיבו להודעה זו או פנו מיד לתמיכה.',
  });
}
