import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Each header as sent, by its lower-case name (the last one when repeated). */
  headers: Record<string, string>;
}

/**
 * A real SMTP server in the test process: the API delivers through nodemailer over TCP exactly as in production,
 * and tests read what arrived (links included).
 */
export class Mailbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private acknowledgementsToLose = 0;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** On a free port, or on `port` (a spec that first lets mails fail against a closed port, then opens it). */
  static async start(port = 0): Promise<Mailbox> {
    let mailbox: Mailbox | null = null;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        // mailparser decodes what nodemailer wrote (encoded-word headers, multipart, base64, quoted-printable), so
        // tests read the delivered message as a mail client would.
        simpleParser(stream).then(
          (parsed) => {
            mailbox!.receive({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              messageId: parsed.messageId ?? '',
              headers: Object.fromEntries(
                parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
              ),
            });
            callback(mailbox!.loseAcknowledgement());
          },
          (error: Error) => callback(error),
        );
      },
    });
    const boundPort = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    mailbox = new Mailbox(server, boundPort);
    return mailbox;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /**
   * The next `count` messages are kept but answered with a temporary failure instead of the final 250, as when the
   * server took a message and the acknowledgement never reached the sender: the sender must believe it failed.
   */
  loseAcknowledgements(count: number): void {
    this.acknowledgementsToLose = count;
  }

  private loseAcknowledgement(): Error | undefined {
    if (this.acknowledgementsToLose === 0) return undefined;
    this.acknowledgementsToLose -= 1;
    return Object.assign(new Error('Acknowledgement lost (test)'), { responseCode: 451 });
  }

  private receive(mail: ReceivedMail): void {
    this.messages.push(mail);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Waits for the next message to `to` that arrives after `since` messages (default: any so far). The default wait is
   * as long as `eventually`'s: a mail follows a request within a second here, but one CI run on two loaded cores saw a
   * sign-up's confirmation miss a 10 s wait (nodemailer then allowed an SMTP server 30 s to greet, see
   * `SMTP_TIME_LIMITS_MS`). A passing spec never waits it out; only a failing one does.
   */
  async waitFor(
    to: string,
    predicate: (mail: ReceivedMail) => boolean = () => true,
    timeoutMs = 30_000,
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((mail) => mail.to.includes(to.toLowerCase()) && predicate(mail));
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first link in a mail's text that starts with `prefix`. */
  static link(mail: ReceivedMail, prefix: string): string {
    const match = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
    if (!match) throw new Error(`No link starting with ${prefix} in: ${mail.text}`);
    return match.replace(/[).,]+$/, '');
  }

  clear(): void {
    this.messages.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
