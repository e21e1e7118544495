/**
 * CSV for spreadsheets (docs/api.md, CSV export; docs/adr/0020-payments-csv-for-spreadsheets.md): RFC 4180 quoting,
 * lines ending in CRLF, and formula injection neutralised. A text cell that a spreadsheet would read as a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, which Excel and LibreOffice show
 * as text. The rows themselves are written by PostgreSQL under the same rules (`export-payments.handler.ts`); this
 * process writes the header line and turns PostgreSQL's line ends into CRLF.
 */
export const FORMULA_START_CHARACTERS: readonly string[] = Object.freeze(['=', '+', '-', '@', '\t', '\r']);
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
  return quoted(FORMULA_START_CHARACTERS.includes(value[0]) ? `'${value}` : value);
}

export function csvLine(cells: readonly (string | null)[]): string {
  return cells.map(csvCell).join(',') + CSV_LINE_END;
}

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN_LINE_FEED = Buffer.from(CSV_LINE_END);

/**
 * Turns the line ends of PostgreSQL's CSV output (`\n` on the servers we run on) into CRLF, chunk after chunk,
 * without touching a line feed inside a quoted cell (a comment typed on two lines). Inside a quoted cell every quote
 * is doubled, so counting quotes is enough to know whether a line feed ends a record.
 */
export class CrlfLineEnds {
  private insideQuotes = false;

  convert(chunk: Buffer): Buffer {
    const parts: Buffer[] = [];
    let start = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (byte === QUOTE) this.insideQuotes = !this.insideQuotes;
      else if (byte === LINE_FEED && !this.insideQuotes) {
        parts.push(chunk.subarray(start, index), CARRIAGE_RETURN_LINE_FEED);
        start = index + 1;
      }
    }
    if (start === 0) return chunk;
    parts.push(chunk.subarray(start));
    return Buffer.concat(parts);
  }
}
