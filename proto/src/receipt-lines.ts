import type { Bilingual } from './bilingual';
import { LANGUAGE_LOCALES, type Language } from './enums';
import { enumLabel } from './labels';
import { formatDollarsForIsolate, minorToAmount } from './money';
import type { IsoDateTime } from './payloads';
import type { Receipt, ReceiptKind } from './receipts';

/**
 * A receipt in words (docs/product.md, Receipts; ADR 0097), the same on the portal's receipt screen and in the PDF.
 * Imported by path (`@kupa/proto/dist/receipt-lines` in the API, the source file in the UIs), never through the
 * index, so that the client portal's first screen does not carry it.
 */
const TEXT = {
  title: { he: 'קבלה מס׳ {number}', en: 'Receipt No. {number}' },
  issued: { he: 'תאריך', en: 'Date' },
  client: { he: 'לקוח', en: 'Client' },
  profileId: { he: 'מספר לקוח', en: 'Client ID' },
  kind: { he: 'סוג', en: 'Type' },
  method: { he: 'אמצעי תשלום', en: 'Payment method' },
  payment: { he: 'מספר תשלום', en: 'Payment No.' },
  plan: { he: 'חבילה', en: 'Package' },
  amountAsked: { he: 'סכום שהתבקש', en: 'Amount asked' },
  amountReceived: { he: 'סכום שהתקבל', en: 'Amount received' },
  listPrice: { he: 'מחיר מחירון', en: 'List price' },
  discount: { he: 'הנחה', en: 'Discount' },
  amountCharged: { he: 'סכום ששולם', en: 'Amount paid' },
  balanceAfter: { he: 'יתרה אחרי התשלום', en: 'Balance after' },
  referral: { he: 'הנחת הפניה {percent}%', en: 'referral discount {percent}%' },
  promoCode: { he: 'קוד קופון {code}', en: 'promo code {code}' },
  notTaxInvoice: {
    he: 'קבלה על תשלום. אינה חשבונית מס.',
    en: 'A receipt for a payment. It is not a tax invoice.',
  },
  taxId: { he: 'מספר עוסק {taxId}', en: 'Tax ID {taxId}' },
} satisfies Record<string, Bilingual>;

const KIND_TEXT: Record<ReceiptKind, Bilingual> = {
  DEPOSIT: { he: 'הפקדה ליתרה', en: 'Deposit to the balance' },
  PURCHASE: { he: 'רכישת חבילה', en: 'Package purchase' },
  RENEWAL: { he: 'חידוש חבילה', en: 'Package renewal' },
};

export function receiptKindText(kind: ReceiptKind, lang: Language): string {
  return KIND_TEXT[kind][lang];
}

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

export function receiptTitle(number: number, lang: Language): string {
  return fill(TEXT.title[lang], { number });
}

/** A receipt's date and time, in UTC so that the same receipt reads the same wherever it is opened. */
export function receiptDate(issuedAt: IsoDateTime, lang: Language): string {
  const formatted = new Intl.DateTimeFormat(LANGUAGE_LOCALES[lang], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(issuedAt));
  return `${formatted} UTC`;
}

/** One line of a receipt: a label, its value, and whether the value reads left to right (amounts, addresses). */
export interface ReceiptLine {
  label: string;
  value: string;
  leftToRight: boolean;
}

function money(amount: number, lang: Language): string {
  return formatDollarsForIsolate(amount, lang);
}

/**
 * What a receipt says, line by line, in one language: the same lines on the portal's receipt view and in the PDF,
 * so the two never disagree. Lines that do not apply (a deposit's package, a purchase's amount asked) are left out.
 */
export function receiptLines(receipt: Receipt, lang: Language): ReceiptLine[] {
  const lines: ReceiptLine[] = [];
  const add = (label: keyof typeof TEXT, value: string, leftToRight = false): void => {
    lines.push({ label: TEXT[label][lang], value, leftToRight });
  };
  add('issued', receiptDate(receipt.issuedAt, lang));
  // The address and its brackets read left to right as one piece inside a Hebrew line (a left-to-right isolate).
  add(
    'client',
    receipt.clientName ? `${receipt.clientName} \u2066<${receipt.clientEmail}>\u2069` : receipt.clientEmail,
  );
  if (receipt.profileId) add('profileId', receipt.profileId, true);
  add('kind', receiptKindText(receipt.kind, lang));
  add('method', enumLabel('paymentMethod', receipt.method, lang));
  add('payment', String(receipt.paymentId), true);
  if (receipt.planName) add('plan', receipt.planName);
  if (receipt.kind === 'DEPOSIT') {
    if (receipt.amountAsked !== null) add('amountAsked', money(receipt.amountAsked, lang), true);
    add('amountReceived', money(receipt.amount, lang), true);
  } else {
    if (receipt.listPrice !== null && receipt.discount > 0) add('listPrice', money(receipt.listPrice, lang), true);
    if (receipt.discount > 0) {
      const why =
        receipt.discountKind === 'PROMO_CODE'
          ? fill(TEXT.promoCode[lang], { code: receipt.promoCode ?? '' })
          : fill(TEXT.referral[lang], { percent: receipt.discountPercent });
      // The amount keeps its sign beside its digits inside a Hebrew line: a left-to-right isolate around it.
      add('discount', `\u2066${money(-receipt.discount, lang)}\u2069 (${why})`);
    }
    add('amountCharged', money(receipt.amount, lang), true);
  }
  if (receipt.balanceAfter !== null) add('balanceAfter', money(receipt.balanceAfter, lang), true);
  return lines;
}

/** The line under the figures: a receipt for a payment, not a tax invoice (formal invoices are out of scope). */
export function receiptDisclaimer(lang: Language): string {
  return TEXT.notTaxInvoice[lang];
}

export function receiptTaxIdText(taxId: string, lang: Language): string {
  return fill(TEXT.taxId[lang], { taxId });
}

/** Cents to the dollars the API sends: the one conversion a receipt's amounts go through. */
export function receiptAmount(amountMinor: number): number {
  return minorToAmount(amountMinor);
}
