/**
 * CSV for spreadsheets (docs/api.md, CSV export; docs/adr/0020-payments-csv-for-spreadsheets.md): RFC 4180 quoting,
 * and formula injection neutralised. A text cell that a spreadsheet would read as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return) gets a leading `'`, which Excel and LibreOffice show as text. The cells the
 * export formats itself (numbers, signed amounts, date-times, digit-only ids) are checked against their exact form
 * instead, and only those may start with `-` or `=`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The UTF-8 byte order mark: without it Excel reads the file in a legacy code page and Hebrew turns to noise. */
export const UTF8_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

function quoted(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A text cell: anything a person or another system typed, guarded against formula injection. */
export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  return quoted(FORMULA_START.test(value) ? `'${value}` : value);
}

/**
 * A cell whose exact form the export produced (an integer, a signed amount, a date-time), written as is so that a
 * spreadsheet reads its value; anything else falls back to a guarded text cell, so no unchecked value escapes the
 * guard.
 */
export function csvValueCell(value: string | null, form: RegExp): string {
  if (value === null || value === '') return '';
  return form.test(value) ? value : csvCell(value);
}

const DIGITS = /^\d+$/;

/**
 * An id made of digits that may start with zeros (a profile ID): `="00012345"`, a formula whose result is that text,
 * which Excel, LibreOffice and Google Sheets show with its zeros. Only digits ever go inside it, so it cannot carry
 * anything but the id; any other value is a guarded text cell.
 */
export function csvDigitsCell(value: string | null): string {
  if (value === null || value === '') return '';
  return DIGITS.test(value) ? quoted(`="${value}"`) : csvCell(value);
}

export function csvLine(cells: readonly (string | null)[]): string {
  return cells.map(csvCell).join(',') + CSV_LINE_END;
}
