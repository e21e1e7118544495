import type { Language } from '@kupa/proto';
import { escapeHtml } from '../../http/html';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /**
   * Where the recipient unsubscribes from this kind of mail with one click (RFC 8058): sent as the List-Unsubscribe
   * and List-Unsubscribe-Post headers. Only announcements carry one; service mails have none.
   */
  unsubscribeUrl?: string;
}

export { escapeHtml } from '../../http/html';

interface MailLayout {
  language: Language;
  subject: string;
  greeting: string;
  paragraphs: string[];
  linkLabel: string;
  link: string;
  footer: string;
}

/**
 * Plain text with the link alone on its own line (mail clients and tests find it whole), and a simple HTML part.
 * Hebrew HTML is right-to-left; the link is isolated with <bdi> so its left-to-right characters keep their order.
 */
export function renderLinkMail(layout: MailLayout): RenderedMail {
  const text = [layout.greeting, '', ...layout.paragraphs, '', layout.link, '', layout.footer].join('\n');
  const direction = layout.language === 'he' ? 'rtl' : 'ltr';
  const link = escapeHtml(layout.link);
  const html = [
    `<!doctype html><html lang="${layout.language}" dir="${direction}"><body style="font-family: Arial, sans-serif">`,
    `<p>${escapeHtml(layout.greeting)}</p>`,
    ...layout.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${link}">${escapeHtml(layout.linkLabel)}</a></p>`,
    `<p><bdi dir="ltr">${link}</bdi></p>`,
    `<p>${escapeHtml(layout.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: layout.subject, text, html };
}
