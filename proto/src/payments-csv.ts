import type { Language } from './enums';
import type { Bilingual } from './bilingual';
import type { EnumName } from './labels';
import { fillPlaceholders } from './placeholders';

/**
 * How a payments CSV cell is written (docs/api.md, CSV export):
 * - `number`: an integer a spreadsheet should read as a number (the payment number);
 * - `amount`: a decimal with two places; the payment's amount is signed, negative when it takes money from the client;
 * - `dateTime`: `YYYY-MM-DD HH:MM:SS` in the zone the header names, which spreadsheets read as a date and time;
 * - `enum`: the value's label in the file's language;
 * - `digits`: an id made of digits that may start with zeros (profile IDs), written so a spreadsheet keeps it text;
 * - `text`: anything else, guarded against formula injection.
 */
export type PaymentsCsvCellKind = 'number' | 'amount' | 'dateTime' | 'enum' | 'digits' | 'text';

export interface PaymentsCsvColumn {
  key: string;
  /** `{zone}` in a date-time column's label is the time zone its values are written in. */
  label: Bilingual;
  kind: PaymentsCsvCellKind;
  enumName?: EnumName;
}

/** The export's columns in file order; the API writes them and the docs list them. */
export const PAYMENTS_CSV_COLUMNS: readonly PaymentsCsvColumn[] = Object.freeze([
  { key: 'paymentId', label: { he: 'מספר תשלום', en: 'Payment number' }, kind: 'number' },
  { key: 'createdAt', label: { he: 'נוצר ({zone})', en: 'Created ({zone})' }, kind: 'dateTime' },
  { key: 'userUuid', label: { he: 'מזהה לקוח', en: 'Client ID' }, kind: 'text' },
  { key: 'userEmail', label: { he: 'דוא״ל הלקוח', en: 'Client e-mail' }, kind: 'text' },
  { key: 'amount', label: { he: 'סכום', en: 'Amount' }, kind: 'amount' },
  { key: 'currency', label: { he: 'מטבע', en: 'Currency' }, kind: 'text' },
  { key: 'status', label: { he: 'סטטוס', en: 'Status' }, kind: 'enum', enumName: 'paymentStatus' },
  { key: 'type', label: { he: 'סוג', en: 'Type' }, kind: 'enum', enumName: 'paymentType' },
  { key: 'method', label: { he: 'אמצעי תשלום', en: 'Method' }, kind: 'enum', enumName: 'paymentMethod' },
  { key: 'aggregator', label: { he: 'ספק', en: 'Aggregator' }, kind: 'enum', enumName: 'paymentAggregator' },
  // SANDBOX marks money paid on the sandbox cashier, which nobody paid (docs/adr/0055-sandboxes-only-on-demand.md).
  { key: 'provider', label: { he: 'ספק התשלום', en: 'Provider' }, kind: 'text' },
  { key: 'comment', label: { he: 'הערה', en: 'Comment' }, kind: 'text' },
  { key: 'senderProfileId', label: { he: 'מזהה פרופיל השולח', en: "Sender's profile ID" }, kind: 'digits' },
  { key: 'recipientProfileId', label: { he: 'מזהה פרופיל הנמען', en: "Recipient's profile ID" }, kind: 'digits' },
  { key: 'transferId', label: { he: 'מזהה העברה', en: 'Transfer ID' }, kind: 'text' },
  { key: 'createdBy', label: { he: 'נוצר על ידי', en: 'Created by' }, kind: 'text' },
  { key: 'updatedAt', label: { he: 'עודכן ({zone})', en: 'Updated ({zone})' }, kind: 'dateTime' },
  { key: 'updatedBy', label: { he: 'עודכן על ידי', en: 'Updated by' }, kind: 'text' },
  // Last, so that spreadsheets built on the earlier columns keep their places (docs/adr/0088-promo-codes.md).
  { key: 'promoCode', label: { he: 'קוד הנחה', en: 'Promo code' }, kind: 'text' },
  { key: 'promoDiscount', label: { he: 'הנחת הקוד', en: 'Promo discount' }, kind: 'amount' },
] satisfies PaymentsCsvColumn[]);

/**
 * The first characters that make a text cell dangerous in a spreadsheet (OWASP, CSV Injection), so that the export
 * writes such a cell with a leading `'`, which Excel and LibreOffice show as text:
 * - the formula starts `=`, `+`, `-`, `@`, and tab, carriage return and line feed;
 * - leading whitespace of any kind, since spreadsheets may drop it on import and read what follows as a formula;
 * - `;`, the field separator of the locales where `,` is the decimal mark, which an import may split on;
 * - look-alikes of those that a spreadsheet's input normalisation (Excel's IME and full-width input, LibreOffice's
 *   autocorrect) may fold into the ASCII character: the full-width (`＝＋－＠；`) and small (`﹦﹢﹣﹫﹔`) forms,
 *   and the minus sign `−`;
 * - invisible format characters (zero-width, joiners, direction marks and embeddings, the byte-order mark), which may
 *   be dropped just as whitespace is.
 * All of them are single UTF-16 units, so the API compares a cell's first unit and PostgreSQL its first character.
 * (docs/adr/0059-edges-refuse-what-they-cannot-read.md)
 */
export const CSV_FORMULA_START_CHARACTERS: readonly string[] = Object.freeze([
  ...'=+-@;',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u0085',
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, offset) => String.fromCharCode(0x2000 + offset)),
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  ...'\uff1d\uff0b\uff0d\uff20\uff1b',
  ...'\ufe66\ufe62\ufe63\ufe6b\ufe54',
  '\u2212',
  ...'\u200b\u200c\u200d\u200e\u200f\u2060\ufeff',
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069',
]);

const FORMULA_STARTS: ReadonlySet<string> = new Set(CSV_FORMULA_START_CHARACTERS);

/** Whether a text cell would start a formula, or could after a spreadsheet drops or folds its first character. */
export function csvCellNeedsFormulaGuard(value: string): boolean {
  return value.length > 0 && FORMULA_STARTS.has(value[0]);
}

/** The zone of the export's date-times when the request names none. */
export const PAYMENTS_CSV_DEFAULT_TIME_ZONE = 'UTC';

/** The header row in `lang`, the date-time columns naming `timeZone`. */
export function paymentsCsvHeader(lang: Language, timeZone: string): string[] {
  return PAYMENTS_CSV_COLUMNS.map((column) => fillPlaceholders(column.label[lang], { zone: timeZone }));
}
