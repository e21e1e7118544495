import { csvCellNeedsFormulaGuard } from '@kupa/proto';
import { assert } from '../../../../kernel';

/**
 * CSV for spreadsheets (docs/api.md, CSV export; docs/adr/0020-payments-csv-for-spreadsheets.md): RFC 4180 quoting,
 * lines ending in CRLF, and formula injection neutralised. A text cell that a spreadsheet would read as a formula
 * (starting with one of proto's `CSV_FORMULA_START_CHARACTERS`: `=`, `+`, `-`, `@`, whitespace, `;`, their look-alikes;
 * ADR 0059) gets a leading `'`, which Excel and LibreOffice show as text. The rows themselves are written by
 * PostgreSQL under the same rules (`export-payments.handler.ts`); this process writes the header line and turns
 * PostgreSQL's line ends into CRLF.
 */
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
  return quoted(csvCellNeedsFormulaGuard(value) ? `'${value}` : value);
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
  /** Where this chunk's record-ending line feeds are; kept between chunks so that a chunk allocates nothing here. */
  private lineEnds = new Int32Array(1024);

  /**
   * Jumps from quote to line feed with `indexOf` (native scans) instead of visiting every byte in JavaScript, then
   * writes the converted chunk into one buffer of the right size: on a million-row export that is about a third of
   * the CPU time of a byte loop with a part per line (docs/benchmarks.md).
   */
  convert(chunk: Buffer): Buffer {
    let count = 0;
    let at = 0;
    let nextQuote = chunk.indexOf(QUOTE);
    while (at < chunk.length) {
      if (this.insideQuotes) {
        if (nextQuote === -1) break;
        this.insideQuotes = false;
        at = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, at);
        continue;
      }
      const lineFeed = chunk.indexOf(LINE_FEED, at);
      if (nextQuote !== -1 && (lineFeed === -1 || nextQuote < lineFeed)) {
        this.insideQuotes = true;
        at = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, at);
        continue;
      }
      if (lineFeed === -1) break;
      if (count === this.lineEnds.length) {
        const grown = new Int32Array(count * 2);
        grown.set(this.lineEnds);
        this.lineEnds = grown;
      }
      this.lineEnds[count++] = lineFeed;
      at = lineFeed + 1;
    }
    if (count === 0) return chunk;
    const converted = Buffer.allocUnsafe(chunk.length + count);
    let from = 0;
    let to = 0;
    for (let index = 0; index < count; index++) {
      const lineFeed = this.lineEnds[index];
      to += chunk.copy(converted, to, from, lineFeed);
      to += CARRIAGE_RETURN_LINE_FEED.copy(converted, to);
      from = lineFeed + 1;
    }
    to += chunk.copy(converted, to, from);
    assert(to === converted.length, 'the converted chunk is exactly one byte longer per record end');
    return converted;
  }
}
