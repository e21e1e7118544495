import { Inject, Injectable } from '@nestjs/common';
import { LIMITS, type Language } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import type { MailKind, RenderedMail, StoredMail } from '../../../../platform/mail';
import {
  confirmationMail,
  emailChangedMail,
  emailChangeLinkMail,
  emailChangeRequestedMail,
  passwordResetMail,
  twoFactorResetMail,
} from '../../../../platform/mail/templates';
import { type OneTimeTokenPurpose, OneTimeTokens } from '../persistence/one-time-tokens';

export const CONFIRMATION_TOKEN_TTL_MS = LIMITS.confirmationTokenTtlHours * 60 * 60 * 1000;
export const PASSWORD_RESET_TOKEN_TTL_MS = LIMITS.passwordResetTokenTtlHours * 60 * 60 * 1000;
export const EMAIL_CHANGE_TOKEN_TTL_MS = LIMITS.emailChangeTokenTtlHours * 60 * 60 * 1000;

const LINKS = {
  EMAIL_CONFIRMATION: { ttlMs: CONFIRMATION_TOKEN_TTL_MS, path: 'confirmation-token' },
  PASSWORD_RESET: { ttlMs: PASSWORD_RESET_TOKEN_TTL_MS, path: 'set-password' },
  EMAIL_CHANGE: { ttlMs: EMAIL_CHANGE_TOKEN_TTL_MS, path: 'email-change' },
} as const;

export const CONFIRMATION_MAIL_KIND = 'identity.confirmation';
export const PASSWORD_RESET_MAIL_KIND = 'identity.password-reset';
export const TWO_FACTOR_RESET_MAIL_KIND = 'identity.two-factor-reset';
/** A change of e-mail (docs/adr/0100-change-of-e-mail.md): the link to the new address, the notices to the old one. */
export const EMAIL_CHANGE_LINK_MAIL_KIND = 'identity.email-change';
export const EMAIL_CHANGE_REQUESTED_MAIL_KIND = 'identity.email-change-requested';
export const EMAIL_CHANGED_MAIL_KIND = 'identity.email-changed';

/** What the identity mails carry in the outbox: who they greet. Tokens are made only when a mail is sent. */
export interface IdentityMailPayload {
  userUuid: string;
  firstName: string;
  /** The address a change of e-mail moves to (its three mails only). */
  newEmail?: string;
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
      {
        name: EMAIL_CHANGE_LINK_MAIL_KIND,
        renderingLifetimeMs: LINKS.EMAIL_CHANGE.ttlMs,
        render: async (mail, manager, now): Promise<RenderedMail> => {
          const { userUuid, firstName, newEmail } = mail.payload as unknown as IdentityMailPayload;
          const link = await this.link(manager, now, userUuid, 'EMAIL_CHANGE', newEmail ?? null);
          return emailChangeLinkMail(languageOf(mail), { firstName, newEmail: newEmail ?? '', link });
        },
      },
      {
        name: EMAIL_CHANGE_REQUESTED_MAIL_KIND,
        renderingLifetimeMs: LINKS.EMAIL_CHANGE.ttlMs,
        render: async (mail): Promise<RenderedMail> => {
          const { firstName, newEmail } = mail.payload as unknown as IdentityMailPayload;
          const link = `${this.config.publicUrl}/my-profile`;
          return emailChangeRequestedMail(languageOf(mail), { firstName, newEmail: newEmail ?? '', link });
        },
      },
      {
        name: EMAIL_CHANGED_MAIL_KIND,
        renderingLifetimeMs: PASSWORD_RESET_TOKEN_TTL_MS,
        render: async (mail): Promise<RenderedMail> => {
          const { firstName, newEmail } = mail.payload as unknown as IdentityMailPayload;
          const link = `${this.config.publicUrl}/login`;
          return emailChangedMail(languageOf(mail), { firstName, newEmail: newEmail ?? '', link });
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
    email: string | null = null,
  ): Promise<string> {
    const { ttlMs, path } = LINKS[purpose];
    const token = await this.tokens.issue(userUuid, purpose, ttlMs, now, manager, email);
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
