import PDFDocument from 'pdfkit';
import { type FaceName, pdfFonts } from './pdf-fonts';
import { type TextDirection, visualRuns } from './bidi-text';

/** A column of a table: its share of the width and where its cells sit (`end`: amounts, against the far edge). */
export interface PdfColumn {
  header: string;
  widthShare: number;
  align?: 'start' | 'end';
}

export type PdfBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'keyValues'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { kind: 'table'; columns: readonly PdfColumn[]; rows: ReadonlyArray<readonly string[]> };

/**
 * A document in one language: a title, blocks one under the other, and a footer on every page (the operator's name,
 * address and tax id). Texts are given in logical order, as typed; the builder orders them for the eye.
 */
export interface PdfDocumentSpec {
  direction: TextDirection;
  /** The document's language tag (`he`, `en`), written into the file for screen readers and extraction. */
  language: string;
  title: string;
  subtitle?: string;
  blocks: readonly PdfBlock[];
  footer: readonly string[];
  /** The file's metadata: who made it. */
  author: string;
}

const PAGE_MARGIN_PT = 50;
const FOOTER_HEIGHT_PT = 60;
const BODY_SIZE_PT = 10.5;
const TITLE_SIZE_PT = 18;
const HEADING_SIZE_PT = 13;
const FOOTER_SIZE_PT = 8.5;
const LINE_GAP_PT = 5;
const CELL_PADDING_PT = 4;
const KEY_COLUMN_SHARE = 0.38;
const RULE_COLOUR = '#9e9e9e';
const MUTED_COLOUR = '#555555';

type Doc = InstanceType<typeof PDFDocument>;

function face(hebrew: boolean, bold: boolean): FaceName {
  if (hebrew) return bold ? 'hebrew-bold' : 'hebrew';
  return bold ? 'latin-bold' : 'latin';
}

/** Draws and measures one line of mixed Hebrew and Latin text, run by run, in the order the eye reads it. */
class LinePainter {
  constructor(
    private readonly doc: Doc,
    private readonly direction: TextDirection,
  ) {}

  width(text: string, size: number, bold = false): number {
    let width = 0;
    for (const run of visualRuns(text, this.direction)) {
      width += this.doc.font(face(run.hebrew, bold)).fontSize(size).widthOfString(run.text);
    }
    return width;
  }

  /** Draws `text` inside [left, left + width], against its start edge (right in Hebrew) or its end edge. */
  draw(
    text: string,
    left: number,
    width: number,
    y: number,
    options: { size: number; bold?: boolean; align: 'start' | 'end' | 'center' },
  ): void {
    const bold = options.bold ?? false;
    const textWidth = this.width(text, options.size, bold);
    const againstRight = (options.align === 'start') === (this.direction === 'rtl');
    let x =
      options.align === 'center' ? left + (width - textWidth) / 2 : againstRight ? left + width - textWidth : left;
    for (const run of visualRuns(text, this.direction)) {
      this.doc.font(face(run.hebrew, bold)).fontSize(options.size);
      // fontkit, pdfkit's shaper, lays a Hebrew run out right to left by itself: it gets the run back in logical order.
      const shaped = run.hebrew ? [...run.text].reverse().join('') : run.text;
      this.doc.text(shaped, x, y, { lineBreak: false });
      x += this.doc.widthOfString(shaped);
    }
  }

  /** Cuts logical text into lines that fit `width`, at spaces (a word longer than a line keeps a line of its own). */
  wrap(text: string, width: number, size: number, bold = false): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ')) {
        const candidate = line === '' ? word : `${line} ${word}`;
        if (line !== '' && this.width(candidate, size, bold) > width) {
          lines.push(line);
          line = word;
        } else line = candidate;
      }
      lines.push(line);
    }
    return lines;
  }
}

function lineHeight(size: number): number {
  return size + LINE_GAP_PT;
}

/**
 * Renders a document to PDF bytes with pdfkit: the Noto Sans Hebrew faces embedded (subsets), each line put through
 * the Unicode bidirectional algorithm, tables whose first column is on the right in Hebrew (a table that runs onto
 * the next page repeats its header there), and the footer on every page. The result is the same for the same spec, apart from the creation date pdfkit stamps.
 */
export async function renderPdf(spec: PdfDocumentSpec, createdAt: Date): Promise<Buffer> {
  const fonts = pdfFonts();
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN_PT,
    lang: spec.language,
    displayTitle: true,
    bufferPages: true,
    info: { Title: spec.title, Author: spec.author, Creator: spec.author, CreationDate: createdAt },
  });
  for (const [name, bytes] of Object.entries(fonts)) doc.registerFont(name, bytes);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const painter = new LinePainter(doc, spec.direction);
  const left = PAGE_MARGIN_PT;
  const width = doc.page.width - 2 * PAGE_MARGIN_PT;
  const bottom = doc.page.height - PAGE_MARGIN_PT - FOOTER_HEIGHT_PT;
  let y = PAGE_MARGIN_PT;

  /** Starts a new page when `needed` points do not fit above the footer; says whether it did. */
  const room = (needed: number): boolean => {
    if (y + needed <= bottom) return false;
    doc.addPage();
    y = PAGE_MARGIN_PT;
    return true;
  };
  const rule = (): void => {
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor(RULE_COLOUR)
      .stroke();
  };

  painter.draw(spec.title, left, width, y, { size: TITLE_SIZE_PT, bold: true, align: 'start' });
  y += lineHeight(TITLE_SIZE_PT) + 2;
  if (spec.subtitle) {
    doc.fillColor(MUTED_COLOUR);
    painter.draw(spec.subtitle, left, width, y, { size: BODY_SIZE_PT, align: 'start' });
    doc.fillColor('black');
    y += lineHeight(BODY_SIZE_PT);
  }
  y += 8;

  for (const block of spec.blocks) {
    switch (block.kind) {
      case 'heading':
        room(lineHeight(HEADING_SIZE_PT) + 6);
        y += 6;
        painter.draw(block.text, left, width, y, { size: HEADING_SIZE_PT, bold: true, align: 'start' });
        y += lineHeight(HEADING_SIZE_PT);
        break;
      case 'paragraph':
        for (const line of painter.wrap(block.text, width, BODY_SIZE_PT)) {
          room(lineHeight(BODY_SIZE_PT));
          painter.draw(line, left, width, y, { size: BODY_SIZE_PT, align: 'start' });
          y += lineHeight(BODY_SIZE_PT);
        }
        y += 4;
        break;
      case 'keyValues': {
        const keyWidth = width * KEY_COLUMN_SHARE;
        const valueWidth = width - keyWidth;
        // In Hebrew the label column is the right one, as the eye starts there.
        const keyLeft = spec.direction === 'rtl' ? left + valueWidth : left;
        const valueLeft = spec.direction === 'rtl' ? left : left + keyWidth;
        for (const [label, value] of block.rows) {
          const valueLines = painter.wrap(value, valueWidth - CELL_PADDING_PT, BODY_SIZE_PT);
          room(lineHeight(BODY_SIZE_PT) * valueLines.length);
          doc.fillColor(MUTED_COLOUR);
          painter.draw(label, keyLeft, keyWidth, y, { size: BODY_SIZE_PT, align: 'start' });
          doc.fillColor('black');
          for (const line of valueLines) {
            painter.draw(line, valueLeft, valueWidth, y, { size: BODY_SIZE_PT, align: 'start' });
            y += lineHeight(BODY_SIZE_PT);
          }
        }
        y += 6;
        break;
      }
      case 'table': {
        const totalShare = block.columns.reduce((sum, column) => sum + column.widthShare, 0);
        const widths = block.columns.map((column) => (width * column.widthShare) / totalShare);
        // Column n's left edge: counted from the left in English, from the right in Hebrew.
        const lefts: number[] = [];
        let offset = 0;
        for (const columnWidth of widths) {
          lefts.push(spec.direction === 'rtl' ? left + width - offset - columnWidth : left + offset);
          offset += columnWidth;
        }
        const layOut = (cells: readonly string[], bold: boolean) => {
          const wrapped = cells.map((cell, index) =>
            painter.wrap(cell, widths[index]! - 2 * CELL_PADDING_PT, BODY_SIZE_PT, bold),
          );
          const lines = Math.max(1, ...wrapped.map((cellLines) => cellLines.length));
          return { wrapped, lines, bold, height: lineHeight(BODY_SIZE_PT) * lines + 6 };
        };
        const paint = ({ wrapped, lines, bold }: ReturnType<typeof layOut>): void => {
          wrapped.forEach((cellLines, index) => {
            cellLines.forEach((line, lineIndex) => {
              painter.draw(
                line,
                lefts[index]! + CELL_PADDING_PT,
                widths[index]! - 2 * CELL_PADDING_PT,
                y + lineIndex * lineHeight(BODY_SIZE_PT),
                {
                  size: BODY_SIZE_PT,
                  bold,
                  align: block.columns[index]!.align ?? 'start',
                },
              );
            });
          });
          y += lineHeight(BODY_SIZE_PT) * lines + 2;
          rule();
          y += 4;
        };
        const header = layOut(
          block.columns.map((column) => column.header),
          true,
        );
        // The header never stands alone at a page's foot: it keeps at least one row's line with it.
        room(header.height + lineHeight(BODY_SIZE_PT));
        paint(header);
        for (const cells of block.rows) {
          const row = layOut(cells, false);
          // A table that runs onto the next page repeats its header there, so every page reads on its own.
          if (room(row.height)) paint(header);
          paint(row);
        }
        y += 6;
        break;
      }
    }
  }

  const pages = doc.bufferedPageRange();
  for (let page = pages.start; page < pages.start + pages.count; page += 1) {
    doc.switchToPage(page);
    let footerY = doc.page.height - PAGE_MARGIN_PT - FOOTER_HEIGHT_PT + 14;
    y = footerY - 8;
    rule();
    doc.fillColor(MUTED_COLOUR);
    for (const line of spec.footer) {
      painter.draw(line, left, width, footerY, { size: FOOTER_SIZE_PT, align: 'center' });
      footerY += lineHeight(FOOTER_SIZE_PT);
    }
    doc.fillColor('black');
  }
  doc.end();
  return finished;
}
