import type { Bilingual, Language } from '@kupa/proto';

/**
 * The receipts screens' words, kept here rather than in the app's dictionaries: every screen that shows them (the
 * receipts, a receipt, the payments and a payment) is a lazy chunk, so the first screen carries none of them
 * (docs/adr/0048-first-screen-in-one-chunk.md).
 */
const TEXT = {
  title: { he: 'קבלות', en: 'Receipts' },
  empty: {
    he: 'אין עדיין קבלות. כל הפקדה ורכישה מקבלת קבלה.',
    en: 'No receipts yet. Every deposit and purchase gets one.',
  },
  back: { he: 'חזרה לקבלות', en: 'Back to receipts' },
  download: { he: 'הורדת PDF', en: 'Download PDF' },
  payment: { he: 'תשלום מספר {id}', en: 'Payment number {id}' },
  receipt: { he: 'קבלה', en: 'Receipt' },
} satisfies Record<string, Bilingual>;

export type ReceiptTextKey = keyof typeof TEXT;

export function receiptText(key: ReceiptTextKey, lang: Language, values: Record<string, string | number> = {}): string {
  return TEXT[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
