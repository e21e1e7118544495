import type { Language } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { type MailKind, type OutboxMail, type StoredMail } from '../../../platform/mail';
import { escapeHtml, type RenderedMail } from '../../../platform/mail/templates';
import type { UnsubscribeTokens } from './unsubscribe-tokens';
import { notificationChannels } from './notification-preferences.store';

export const BROADCAST_MAIL_KIND = 'notifications.broadcast';

interface BroadcastMailPayload {
  broadcastId: string;
  userUuid: string;
  firstName: string;
  subject: string;
  body: string;
}

export function broadcastOutboxMail(
  dedupeKey: string,
  recipient: { email: string; language: Language },
  payload: BroadcastMailPayload,
): OutboxMail {
  return {
    dedupeKey,
    kind: BROADCAST_MAIL_KIND,
    recipient: recipient.email,
    language: recipient.language,
    payload: { ...payload },
  };
}

const FOOTER = {
  he: { greeting: (name: string) => `שלום ${name},`, unsubscribe: 'להסרה מרשימת ההודעות:' },
  en: { greeting: (name: string) => `Hello ${name},`, unsubscribe: 'To stop receiving announcements:' },
} as const;

/**
 * An admin's announcement as it goes out (ADR 0091): the text in the recipient's language, an unsubscribe link and
 * the one-click List-Unsubscribe headers. A client who switched announcements off for e-mail before their turn came is skipped.
 */
export class BroadcastMailKind implements MailKind {
  readonly name = BROADCAST_MAIL_KIND;

  constructor(private readonly tokens: UnsubscribeTokens) {}

  async stillWanted(mail: StoredMail, manager: EntityManager): Promise<boolean> {
    const { userUuid } = mail.payload as unknown as BroadcastMailPayload;
    const channelsOf = await notificationChannels(manager, [userUuid]);
    return channelsOf(userUuid, 'announcements').includes('email');
  }

  render(mail: StoredMail): Promise<RenderedMail> {
    const payload = mail.payload as unknown as BroadcastMailPayload;
    const words = FOOTER[mail.language];
    const link = this.tokens.pageUrl(payload.userUuid);
    const direction = mail.language === 'he' ? 'rtl' : 'ltr';
    const text = [words.greeting(payload.firstName), '', payload.body, '', '--', words.unsubscribe, link].join('\n');
    const html = [
      `<!doctype html><html lang="${mail.language}" dir="${direction}"><body style="font-family: Arial, sans-serif">`,
      `<p>${escapeHtml(words.greeting(payload.firstName))}</p>`,
      ...payload.body.split(/\n{2,}/).map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`),
      `<hr><p style="font-size: small">${escapeHtml(words.unsubscribe)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      '</body></html>',
    ].join('\n');
    return Promise.resolve({
      subject: payload.subject,
      text,
      html,
      unsubscribeUrl: this.tokens.oneClickUrl(payload.userUuid),
    });
  }
}
