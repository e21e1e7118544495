import { LIMITS, type Language } from '@kupa/proto';
import { type RenderedMail, renderLinkMail } from './render';

export interface PasswordResetMailParams {
  firstName: string;
  link: string;
}

/** The forgot-password mail (1-hour single-use link). */
export function passwordResetMail(language: Language, params: PasswordResetMailParams): RenderedMail {
  const hours = LIMITS.passwordResetTokenTtlHours;
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'Reset your Kupa password',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [
        `Someone asked to reset the password of your Kupa account. Open this link within ${hours} hour to choose a new one:`,
      ],
      linkLabel: 'Choose a new password',
      link: params.link,
      footer: 'If you did not ask for this, ignore this message: your password stays as it is.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'איפוס הסיסמה שלך בקופה',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [`התקבלה בקשה לאיפוס הסיסמה של החשבון שלך בקופה. לבחירת סיסמה חדשה, פתחו את הקישור הבא בתוך שעה:`],
    linkLabel: 'בחירת סיסמה חדשה',
    link: params.link,
    footer: 'אם לא ביקשת זאת, אפשר להתעלם מההודעה: הסיסמה שלך לא תשתנה.',
  });
}
