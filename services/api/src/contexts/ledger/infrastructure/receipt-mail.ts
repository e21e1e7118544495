import { formatDollarsForIsolate } from '@kupa/proto';
import { receiptKindText, receiptTitle } from '@kupa/proto/dist/receipt-lines';
import type { EntityManager } from 'typeorm';
import type { MailKind, StoredMail } from '../../../platform/mail';
import { type RenderedMail, renderLinkMail } from '../../../platform/mail/templates';
import { ReceiptReader } from '../queries/receipts/receipt-reader';

export const RECEIPT_MAIL_KIND = 'ledger.receipt';

export interface ReceiptMailPayload {
  number: number;
  userUuid: string;
  firstName: string;
}

const WORDS = {
  he: {
    greeting: (name: string) => `שלום ${name},`,
    thanks: 'התשלום התקבל, תודה.',
    line: (kind: string, amount: string) => `${kind}: ${amount}.`,
    label: 'לקבלה',
  },
  en: {
    greeting: (name: string) => `Hello ${name},`,
    thanks: 'Your payment went through, thank you.',
    line: (kind: string, amount: string) => `${kind}: ${amount}.`,
    label: 'View the receipt',
  },
} as const;

/**
 * The mail that confirms a payment (ADR 0097): what was paid and a link to its receipt in the portal, where the PDF
 * is downloaded. The receipt is read when the mail renders; it never changes after it was issued.
 */
export class ReceiptMailKind implements MailKind {
  readonly name = RECEIPT_MAIL_KIND;

  constructor(
    private readonly receipts: ReceiptReader,
    private readonly publicUrl: string,
    private readonly operatorName: string,
  ) {}

  async render(mail: StoredMail, manager: EntityManager): Promise<RenderedMail> {
    const payload = mail.payload as unknown as ReceiptMailPayload;
    const lang = mail.language;
    const words = WORDS[lang];
    const receipt = await this.receipts.find(payload.userUuid, payload.number, manager);
    const title = receiptTitle(payload.number, lang);
    const paragraphs: string[] = [words.thanks];
    if (receipt)
      paragraphs.push(words.line(receiptKindText(receipt.kind, lang), formatDollarsForIsolate(receipt.amount, lang)));
    return renderLinkMail({
      language: lang,
      subject: `${title} · ${this.operatorName}`,
      greeting: words.greeting(payload.firstName),
      paragraphs,
      linkLabel: words.label,
      link: `${this.publicUrl}/receipts/${payload.number}`,
      footer: this.operatorName,
    });
  }
}
