import { type AccountStatement, statementCsvHeader, statementLineWords, STATEMENT_WORDS } from '@kupa/proto';
import { CSV_LINE_END, csvCell, csvLine, UTF8_BOM } from '../export-payments/csv';
import { statementDateTimeFormat } from './statement-time-zone';

/**
 * `YYYY-MM-DD HH:MM:SS` in `timeZone`, which spreadsheets read as a date and time, as the payments export writes
 * them. An IANA name this runtime does not know is the caller's mistake: 400 on `timeZone`.
 */
function dateTimeFormat(timeZone: string): (iso: string) => string {
  const format = statementDateTimeFormat('en-GB', timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
}

/** An amount with two decimals, signed; ours, never typed by a person, so it needs no formula guard. */
function amountCell(amount: number): string {
  return amount.toFixed(2);
}

/**
 * The statement as a spreadsheet file (docs/api.md, Statements): a byte order mark, the header in the statement's
 * language, an opening row, one row per posting with its running balance, and a closing row. Text cells go through
 * `csvCell` (formula guard, quoting) without the direction isolates a screen needs.
 */
export function statementCsv(statement: AccountStatement, timeZone: string): string {
  const lang = statement.language;
  const dateTime = dateTimeFormat(timeZone);
  const row = (at: string, paymentId: number | null, words: string, amount: number | null, balance: number) =>
    [
      csvCell(dateTime(at)),
      paymentId === null ? '' : String(paymentId),
      csvCell(words),
      amount === null ? '' : amountCell(amount),
      amountCell(balance),
    ].join(',') + CSV_LINE_END;
  const lines = [
    UTF8_BOM + csvLine(statementCsvHeader(lang, timeZone)),
    row(statement.from, null, STATEMENT_WORDS.openingBalance[lang], null, statement.openingBalance),
    ...statement.lines.map((line) =>
      row(
        line.occurredAt,
        line.paymentId,
        statementLineWords(line, statement.userUuid, lang, false),
        line.amount,
        line.balanceAfter,
      ),
    ),
    row(statement.to, null, STATEMENT_WORDS.closingBalance[lang], null, statement.closingBalance),
  ];
  return lines.join('');
}
