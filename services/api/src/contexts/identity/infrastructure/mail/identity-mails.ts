import { Inject, Injectable } from '@nestjs/common';
import { LIMITS, type Language } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import type { MailKind, RenderedMail, StoredMail } from '../../../../platform/mail';
import { confirmationMail, passwordResetMail, twoFactorResetMail } from '../../../../platform/mail/templates';
import { type OneTimeTokenPurpose, OneTimeTokens } from '../persistence/one-time-tokens';

export const CONFIRMATION_TOKEN_TTL_MS = LIMITS.confirmationTokenTtlHours * 60 * 60 * 1000;
export const PASSWORD_RESET_TOKEN_TTL_MS = LIMITS.passwordResetTokenTtlHours * 60 * 60 * 1000;

const LINKS = {
  EMAIL_CONFIRMATION: { ttlMs: CONFIRMATION_TOKEN_TTL_MS, path: 'confirmation-token' },
  PASSWORD_RESET: { ttlMs: PASSWORD_RESET_TOKEN_TTL_MS, path: 'set-password' },
} as const;

export const CONFIRMATION_MAIL_KIND = 'identity.confirmation';
export const PASSWORD_RESET_MAIL_KIND = 'identity.password-reset';
export const TWO_FACTOR_RESET_MAIL_KIND = 'identity.two-factor-reset';

/** What the identity mails carry in the outbox: who they greet. Tokens are made only when a mail is sent. */
export interface IdentityMailPayload {
  userUuid: string;
  firstName: string;
}

/**
 * The identity mails and their links. Each renders on its first attempt: the one-time token is issued then, in the
 * dispatcher's transaction, so it exists only once the mail is about to go out, and only the latest link of a kind
 * works. A retry sends the same rendering, link and all, for as long as that link lives
 * (docs/adr/0066-a-re-sent-mail-is-the-same-mail.md).
 */
@Injectable()
export class IdentityMails {
  constructor(
    private readonly tokens: OneTimeTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  kinds(): MailKind[] {
    return [
      {
        name: CONFIRMATION_MAIL_KIND,
        renderingLifetimeMs: LINKS.EMAIL_CONFIRMATION.ttlMs,
        // Confirmed (or blocked) meanwhile: a confirmation link would only be refused.
        stillWanted: async (mail, manager) =>
          (await this.statusOf(manager, (mail.payload as unknown as IdentityMailPayload).userUuid)) === 'NON_VERIFIED',
        render: async (mail, manager, now): Promise<RenderedMail> => {
          const { userUuid, firstName } = mail.payload as unknown as IdentityMailPayload;
          const link = await this.link(manager, now, userUuid, 'EMAIL_CONFIRMATION');
          return confirmationMail(languageOf(mail), { firstName, link });
        },
      },
      {
        name: PASSWORD_RESET_MAIL_KIND,
        renderingLifetimeMs: LINKS.PASSWORD_RESET.ttlMs,
        render: async (mail, manager, now): Promise<RenderedMail> => {
          const { userUuid, firstName } = mail.payload as unknown as IdentityMailPayload;
          const link = await this.link(manager, now, userUuid, 'PASSWORD_RESET');
          return passwordResetMail(languageOf(mail), { firstName, link });
        },
      },
      {
        // A notice without a token: it only points at the profile, where the owner turns two-factor on again.
        name: TWO_FACTOR_RESET_MAIL_KIND,
        renderingLifetimeMs: PASSWORD_RESET_TOKEN_TTL_MS,
        render: async (mail): Promise<RenderedMail> => {
          const { firstName } = mail.payload as unknown as IdentityMailPayload;
          return twoFactorResetMail(languageOf(mail), { firstName, link: `${this.config.publicUrl}/my-profile` });
        },
      },
    ];
  }

  /** A fresh one-time token for the mail being sent, as the link the mail carries. */
  private async link(
    manager: EntityManager,
    now: Date,
    userUuid: string,
    purpose: OneTimeTokenPurpose,
  ): Promise<string> {
    const { ttlMs, path } = LINKS[purpose];
    const token = await this.tokens.issue(userUuid, purpose, ttlMs, now, manager);
    return `${this.config.publicUrl}/${path}/${token}`;
  }

  private async statusOf(manager: EntityManager, userUuid: string): Promise<string | null> {
    const rows: Array<{ status: string }> = await manager.query('SELECT status FROM users WHERE uuid = $1', [userUuid]);
    return rows[0]?.status ?? null;
  }
}

function languageOf(mail: StoredMail): Language {
  return mail.language === 'en' ? 'en' : 'he';
}
