/*
 * A client's statement in words (docs/product.md, Ledger, Statements; docs/adr/0096-statements.md). A posting reads
 * as the activity log reads its event: the same sentence table (`EVENT_SENTENCES`) through the same function
 * (`auditSentenceParts`), with the client's payment as the sentence's target.
 */
import { auditSentenceParts, segmentText } from './audit-sentence';
import type { Bilingual } from './bilingual';
import { type Language, SYSTEM_ACTOR_ID } from './enums';
import { fillPlaceholders } from './placeholders';

/**
 * The event a posting reads as from the client's side. A transfer is booked once, by the sender's `TransferSent`
 * (the recipient's posting carries that type too), so the credited side of it reads as `TransferReceived`.
 */
export function statementEventType(bookedEventType: string, amountMinor: number): string {
  return bookedEventType === 'TransferSent' && amountMinor > 0 ? 'TransferReceived' : bookedEventType;
}

/**
 * A statement line's words: "Payment #12: manual deposit", "תשלום ‎#12‎: העברה נכנסת". `isolated` keeps Unicode's
 * direction isolates around the values, for screens and PDFs; a CSV cell goes without them.
 */
export function statementLineWords(
  line: { paymentId: number | null; eventType: string },
  userUuid: string,
  lang: Language,
  isolated = true,
): string {
  const target =
    line.paymentId === null
      ? { type: 'CLIENT' as const, id: userUuid, name: null, email: null }
      : { type: 'PAYMENT' as const, id: String(line.paymentId), name: null, email: null };
  const parts = auditSentenceParts(
    {
      id: '',
      createdAt: '',
      createdBy: { id: SYSTEM_ACTOR_ID, name: '' },
      operationType: 'CREATED',
      target,
      parent: null,
      changes: [],
      eventType: line.eventType,
    },
    lang,
  );
  const text = (segment: { text: string; isolate?: 'ltr' | 'auto' }) =>
    isolated ? segmentText(segment) : segment.text;
  return parts.map((part) => ('ref' in part ? part.segments.map(text).join('') : text(part))).join('');
}

/** The statement file's columns, in order (docs/api.md, Statements); `{zone}` is the time zone of its date-times. */
export const STATEMENT_CSV_COLUMNS = Object.freeze([
  { key: 'occurredAt', label: { he: 'מועד ({zone})', en: 'Date ({zone})' } },
  { key: 'paymentId', label: { he: 'מספר תשלום', en: 'Payment number' } },
  { key: 'description', label: { he: 'תיאור', en: 'Description' } },
  { key: 'amount', label: { he: 'סכום', en: 'Amount' } },
  { key: 'balanceAfter', label: { he: 'יתרה', en: 'Balance' } },
] as const satisfies ReadonlyArray<{ key: string; label: Bilingual }>);

/** Words of a statement that are not a posting's: its opening and closing rows, its totals, its box. */
export const STATEMENT_WORDS = Object.freeze({
  openingBalance: { he: 'יתרת פתיחה', en: 'Opening balance' },
  closingBalance: { he: 'יתרת סגירה', en: 'Closing balance' },
  title: { he: 'דף חשבון', en: 'Account statement' },
  client: { he: 'לקוח', en: 'Client' },
  period: { he: 'תקופה', en: 'Period' },
  periodRange: { he: '{from} עד {to} ({zone})', en: '{from} to {to} ({zone})' },
  creditsTotal: { he: 'נכנס', en: 'Money in' },
  debitsTotal: { he: 'יצא', en: 'Money out' },
  noPostings: { he: 'אין תנועות בתקופה זו.', en: 'No postings in this period.' },
} satisfies Record<string, Bilingual>);

export function statementCsvHeader(lang: Language, timeZone: string): string[] {
  return STATEMENT_CSV_COLUMNS.map((column) => fillPlaceholders(column.label[lang], { zone: timeZone }));
}
