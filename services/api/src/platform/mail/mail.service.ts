import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';

export const MAIL_OPTIONS = Symbol('MAIL_OPTIONS');

export interface MailOptions {
  smtpUrl: string | null;
  from: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID lets a receiving system recognise the same mail sent twice. */
  messageId?: string;
}

/**
 * Sends e-mail through SMTP when SMTP_URL is set; otherwise logs the message (with its links) so that a local
 * install can still confirm accounts and reset passwords.
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | null;

  constructor(@Inject(MAIL_OPTIONS) private readonly options: MailOptions) {
    this.transport = options.smtpUrl ? createTransport(options.smtpUrl) : null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.log(`Mail to ${message.to}: ${message.subject}\n${message.text}`);
      return;
    }
    await this.transport.sendMail({ from: this.options.from, ...message });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
