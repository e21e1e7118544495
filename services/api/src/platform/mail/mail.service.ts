import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';

export const MAIL_OPTIONS = Symbol('MAIL_OPTIONS');

export interface MailOptions {
  smtpUrl: string | null;
  from: string;
  /** Overrides of `SMTP_TIME_LIMITS_MS`, for specs of a server that stalls. */
  timeLimitsMs?: Partial<SmtpTimeLimitsMs>;
}

export interface SmtpTimeLimitsMs {
  /** To open the TCP (and TLS) connection. */
  connection: number;
  /** From the connection to the server's greeting. */
  greeting: number;
  /** Of silence on an open connection, mid-exchange. */
  socket: number;
}

/**
 * How long one SMTP exchange may stall. The outbox sends one mail at a time, so a server that accepts the connection
 * and then says nothing holds every mail behind it: nodemailer's own limits (2 min to connect, 30 s for the greeting,
 * 10 min of silence) would stop confirmations and password resets for that long. A mail cut off here is retried with
 * the outbox's backoff, as any failed attempt is.
 */
export const SMTP_TIME_LIMITS_MS: SmtpTimeLimitsMs = { connection: 10_000, greeting: 10_000, socket: 30_000 };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID lets a receiving system recognise the same mail sent twice. */
  messageId?: string;
  /** The one-click unsubscribe address of an announcement (RFC 8058); service mails have none. */
  unsubscribeUrl?: string;
}

/**
 * Sends e-mail through SMTP when SMTP_URL is set. Without it (a local install, development) it writes each mail, its
 * links and their one-time tokens included, to the log instead, so that accounts can still be confirmed and passwords
 * reset; it says so once at start. This is the one place a token may reach the log, and only in that mode
 * (docs/adr/0031-health-metrics-logs.md).
 */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | null;

  constructor(@Inject(MAIL_OPTIONS) private readonly options: MailOptions) {
    const limitsMs = { ...SMTP_TIME_LIMITS_MS, ...options.timeLimitsMs };
    this.transport = options.smtpUrl
      ? createTransport({
          url: options.smtpUrl,
          connectionTimeout: limitsMs.connection,
          greetingTimeout: limitsMs.greeting,
          socketTimeout: limitsMs.socket,
        })
      : null;
    if (!this.transport)
      this.logger.warn('SMTP_URL is not set: mails, with their one-time links, are written to this log, not sent');
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.log({
        msg: 'Mail written to the log (no SMTP_URL)',
        mail: { to: message.to, subject: message.subject, text: message.text },
      });
      return;
    }
    const { unsubscribeUrl, ...mail } = message;
    await this.transport.sendMail({
      from: this.options.from,
      ...mail,
      ...(unsubscribeUrl
        ? { list: { unsubscribe: unsubscribeUrl }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
        : {}),
    });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
