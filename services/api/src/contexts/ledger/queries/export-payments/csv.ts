/**
 * CSV for spreadsheets (docs/api.md, CSV export): RFC 4180 quoting, and formula injection neutralised. A cell that a
 * spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading
 * `'`, which Excel and LibreOffice show as text. Numbers we write ourselves (amounts) never need it: they are not
 * negative.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The UTF-8 byte order mark: without it Excel reads the file in a legacy code page and Hebrew turns to noise. */
export const UTF8_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly (string | null)[]): string {
  return cells.map(csvCell).join(',') + CSV_LINE_END;
}
