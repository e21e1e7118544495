import { Inject, Injectable, Logger } from '@nestjs/common';
import { LIMITS, type Language } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { MailService } from '../../../platform/mail';
import { confirmationMail, passwordResetMail } from '../../../platform/mail/templates';

export const CONFIRMATION_TOKEN_TTL_MS = LIMITS.confirmationTokenTtlHours * 60 * 60 * 1000;
export const PASSWORD_RESET_TOKEN_TTL_MS = LIMITS.passwordResetTokenTtlHours * 60 * 60 * 1000;

interface Recipient {
  email: string;
  firstName: string;
  language: Language;
}

/**
 * The identity mails with their links. Sent after the transaction that issued the token commits; a mail failure is
 * logged rather than undoing the account change, because the user can ask for the mail again.
 */
@Injectable()
export class IdentityMails {
  private readonly logger = new Logger('IdentityMails');

  constructor(
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  sendConfirmation(recipient: Recipient, token: string): Promise<void> {
    const link = `${this.config.publicUrl}/confirmation-token/${token}`;
    return this.deliver(
      recipient.email,
      confirmationMail(recipient.language, { firstName: recipient.firstName, link }),
    );
  }

  sendPasswordReset(recipient: Recipient, token: string): Promise<void> {
    const link = `${this.config.publicUrl}/set-password/${token}`;
    return this.deliver(
      recipient.email,
      passwordResetMail(recipient.language, { firstName: recipient.firstName, link }),
    );
  }

  private async deliver(to: string, rendered: { subject: string; text: string; html: string }): Promise<void> {
    try {
      await this.mail.send({ to, ...rendered });
    } catch (error) {
      this.logger.error(`Mail to ${to} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
