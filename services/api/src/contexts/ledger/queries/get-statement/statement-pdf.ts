import {
  type AccountStatement,
  formatDollarsForIsolate,
  formatSignedDollarsForIsolate,
  LANGUAGE_LOCALES,
  STATEMENT_CSV_COLUMNS,
  STATEMENT_WORDS,
  fillPlaceholders,
  withoutDirectionMarks,
} from '@kupa/proto';
import type { OperatorDetails } from '../../../../platform/config';
import { leftToRight, type PdfBlock, type PdfDocumentSpec, renderPdf } from '../../../../platform/pdf';
import { operatorFooter } from '../../infrastructure/receipt-pdf';
import { statementDateTimeFormat } from './statement-time-zone';

/** Whom the statement is about, as its first line names them. */
export interface StatementHolderName {
  firstName: string;
  lastName: string;
  email: string;
}

function columnLabel(key: (typeof STATEMENT_CSV_COLUMNS)[number]['key'], statement: AccountStatement, zone: string) {
  const column = STATEMENT_CSV_COLUMNS.find((candidate) => candidate.key === key)!;
  return fillPlaceholders(column.label[statement.language], { zone });
}

/**
 * A statement as a document (docs/api.md, Statements; ADR 0096): the client and the period, the four figures, and a
 * table of the postings with their words and running balance, in the statement's language. Date-times are written in
 * `timeZone` (named in the period and the date column), amounts and dates kept left to right inside Hebrew lines.
 */
export function statementDocument(
  statement: AccountStatement,
  holder: StatementHolderName,
  timeZone: string,
  operator: OperatorDetails,
): PdfDocumentSpec {
  const lang = statement.language;
  const format = statementDateTimeFormat(LANGUAGE_LOCALES[lang], timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const dateTime = (iso: string) => leftToRight(withoutDirectionMarks(format.format(new Date(iso))));
  const money = (amount: number) => leftToRight(formatDollarsForIsolate(amount, lang));
  const name = `${holder.firstName} ${holder.lastName}`.trim();
  const table: PdfBlock =
    statement.lines.length === 0
      ? { kind: 'paragraph', text: STATEMENT_WORDS.noPostings[lang] }
      : {
          kind: 'table',
          columns: [
            { header: columnLabel('occurredAt', statement, timeZone), widthShare: 0.24 },
            { header: columnLabel('description', statement, timeZone), widthShare: 0.44 },
            { header: columnLabel('amount', statement, timeZone), widthShare: 0.16, align: 'end' },
            { header: columnLabel('balanceAfter', statement, timeZone), widthShare: 0.16, align: 'end' },
          ],
          rows: statement.lines.map((line) => [
            dateTime(line.occurredAt),
            line.description,
            leftToRight(formatSignedDollarsForIsolate(line.amount, lang)),
            money(line.balanceAfter),
          ]),
        };
  return {
    direction: lang === 'he' ? 'rtl' : 'ltr',
    language: lang,
    title: STATEMENT_WORDS.title[lang],
    author: operator.name,
    blocks: [
      {
        kind: 'keyValues',
        rows: [
          [STATEMENT_WORDS.client[lang], name ? `${name} <${holder.email}>` : holder.email],
          [
            STATEMENT_WORDS.period[lang],
            fillPlaceholders(STATEMENT_WORDS.periodRange[lang], {
              from: dateTime(statement.from),
              to: dateTime(statement.to),
              zone: timeZone,
            }),
          ],
          [STATEMENT_WORDS.openingBalance[lang], money(statement.openingBalance)],
          [STATEMENT_WORDS.creditsTotal[lang], money(statement.creditsTotal)],
          [STATEMENT_WORDS.debitsTotal[lang], money(statement.debitsTotal)],
          [STATEMENT_WORDS.closingBalance[lang], money(statement.closingBalance)],
        ],
      },
      table,
    ],
    footer: operatorFooter(operator, lang),
  };
}

export function statementPdf(
  statement: AccountStatement,
  holder: StatementHolderName,
  timeZone: string,
  operator: OperatorDetails,
  createdAt: Date,
): Promise<Buffer> {
  return renderPdf(statementDocument(statement, holder, timeZone, operator), createdAt);
}
