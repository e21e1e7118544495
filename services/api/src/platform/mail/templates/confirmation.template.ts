import { LIMITS, type Language } from '@kupa/proto';
import { type RenderedMail, renderLinkMail } from './render';

export interface ConfirmationMailParams {
  firstName: string;
  link: string;
}

/** The sign-up confirmation mail (24-hour single-use link). */
export function confirmationMail(language: Language, params: ConfirmationMailParams): RenderedMail {
  const hours = LIMITS.confirmationTokenTtlHours;
  if (language === 'en') {
    return renderLinkMail({
      language,
      subject: 'Confirm your Kupa account',
      greeting: `Hello ${params.firstName},`,
      paragraphs: [`Thanks for signing up to Kupa. Open this link within ${hours} hours to activate your account:`],
      linkLabel: 'Activate my account',
      link: params.link,
      footer: 'If you did not sign up, ignore this message.',
    });
  }
  return renderLinkMail({
    language,
    subject: 'אישור החשבון שלך בקופה',
    greeting: `שלום ${params.firstName},`,
    paragraphs: [`תודה שנרשמת לקופה. כדי להפעיל את החשבון, פתחו את הקישור הבא בתוך ${hours} שעות:`],
    linkLabel: 'הפעלת החשבון',
    link: params.link,
    footer: 'אם לא נרשמת, אפשר להתעלם מההודעה הזו.',
  });
}
