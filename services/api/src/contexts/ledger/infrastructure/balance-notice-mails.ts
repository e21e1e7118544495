import { formatDollarsForIsolate, minorToAmount, transferSenderText } from '@kupa/proto';
import type { MailKind, StoredMail } from '../../../platform/mail';
import { type RenderedMail, renderLinkMail } from '../../../platform/mail/templates';

export const TRANSFER_RECEIVED_MAIL_KIND = 'ledger.transfer-received';
export const LOW_BALANCE_MAIL_KIND = 'ledger.low-balance';

/** A transfer's mail carries what it says, fixed when it was queued: never the sender's e-mail (ADR 0077). */
export interface TransferReceivedMailPayload {
  userUuid: string;
  firstName: string;
  amountMinor: number;
  senderName: string | null;
  senderProfileId: string;
  paymentId: number;
}

export interface LowBalanceMailPayload {
  userUuid: string;
  firstName: string;
  balanceMinor: number;
  thresholdMinor: number;
  /** What the one-click top-up asks for: back to the threshold. */
  topUpMinor: number;
}

const WORDS = {
  he: {
    greeting: (name: string) => `שלום ${name},`,
    transferSubject: (amount: string) => `קיבלת העברה של ${amount}`,
    transfer: (sender: string, amount: string) => `${sender} העביר/ה ליתרה שלך ${amount}.`,
    transferLabel: 'לפרטי ההעברה',
    lowSubject: 'היתרה שלך נמוכה',
    low: (balance: string, threshold: string) => `היתרה שלך ירדה אל מתחת ל-${threshold} ועומדת על ${balance}.`,
    lowHint: 'כך ביקשת שנודיע לך. הטעינו את היתרה כדי שהחידושים הבאים יעברו.',
    lowLabel: 'להטענת היתרה',
  },
  en: {
    greeting: (name: string) => `Hello ${name},`,
    transferSubject: (amount: string) => `You received a transfer of ${amount}`,
    transfer: (sender: string, amount: string) => `${sender} sent ${amount} to your balance.`,
    transferLabel: 'View the transfer',
    lowSubject: 'Your balance is low',
    low: (balance: string, threshold: string) => `Your balance fell under ${threshold} and is now ${balance}.`,
    lowHint: 'You asked us to tell you. Top it up so that your next renewals go through.',
    lowLabel: 'Top up your balance',
  },
} as const;

/** The mail of a transfer received (ADR 0105): who sent how much, and the payment in the portal. */
export class TransferReceivedMailKind implements MailKind {
  readonly name = TRANSFER_RECEIVED_MAIL_KIND;

  constructor(
    private readonly publicUrl: string,
    private readonly operatorName: string,
  ) {}

  async render(mail: StoredMail): Promise<RenderedMail> {
    const payload = mail.payload as unknown as TransferReceivedMailPayload;
    const words = WORDS[mail.language];
    const amount = formatDollarsForIsolate(minorToAmount(payload.amountMinor), mail.language);
    return renderLinkMail({
      language: mail.language,
      subject: `${words.transferSubject(amount)} · ${this.operatorName}`,
      greeting: words.greeting(payload.firstName),
      paragraphs: [words.transfer(transferSenderText(payload.senderName, payload.senderProfileId), amount)],
      linkLabel: words.transferLabel,
      link: `${this.publicUrl}/payments/${payload.paymentId}`,
      footer: this.operatorName,
    });
  }
}

/** The mail of a balance that fell under the person's threshold (ADR 0102, 0105), with the one-click top-up. */
export class LowBalanceMailKind implements MailKind {
  readonly name = LOW_BALANCE_MAIL_KIND;

  constructor(
    private readonly publicUrl: string,
    private readonly operatorName: string,
  ) {}

  async render(mail: StoredMail): Promise<RenderedMail> {
    const payload = mail.payload as unknown as LowBalanceMailPayload;
    const words = WORDS[mail.language];
    const money = (minor: number) => formatDollarsForIsolate(minorToAmount(minor), mail.language);
    return renderLinkMail({
      language: mail.language,
      subject: `${words.lowSubject} · ${this.operatorName}`,
      greeting: words.greeting(payload.firstName),
      paragraphs: [words.low(money(payload.balanceMinor), money(payload.thresholdMinor)), words.lowHint],
      linkLabel: words.lowLabel,
      link: `${this.publicUrl}/payments/deposit?amountMinor=${payload.topUpMinor}`,
      footer: this.operatorName,
    });
  }
}
