import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { paymentOrderBy, paymentWhere } from '../payment-rows/payment-query';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import {
  CREDITING_PAYMENT_TYPES,
  type EnumName,
  enumLabel,
  type Language,
  PAYMENTS_CSV_COLUMNS,
  PAYMENTS_CSV_DEFAULT_TIME_ZONE,
  type PaymentsCsvColumn,
  paymentsCsvHeader,
} from '@kupa/proto';
import { ValidationFailedError } from '../../../../platform/http';
import { CSV_LINE_END, csvCell, csvDigitsCell, csvLine, csvValueCell, UTF8_BOM } from './csv';
import { ExportPaymentsQuery } from './export-payments.query';

/**
 * Rows fetched from the server-side cursor per round trip. Memory stays bounded by one batch whatever the export's
 * size; larger batches only shave round trips (measured in docs/benchmarks.md).
 */
export const EXPORT_FETCH_BATCH_ROWS = 2000;
const CURSOR_NAME = 'payments_export';

/** The forms of the cells the export formats itself (`csvValueCell`). */
const INTEGER = /^\d+$/;
const SIGNED_AMOUNT = /^-?\d+\.\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** PostgreSQL's SQLSTATE for an unknown time zone name (`invalid_parameter_value`). */
const INVALID_PARAMETER_VALUE = '22023';

/** What the selected expression of each column is; `p` is the payments row, `zone` the time zone's placeholder. */
const COLUMN_SQL: Readonly<Record<string, (zone: string, credits: string) => string>> = Object.freeze({
  paymentId: () => 'p.payment_id::text',
  createdAt: (zone: string) => `to_char(p.created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD HH24:MI:SS')`,
  userUuid: () => 'p.user_uuid::text',
  userEmail: () => 'p.user_email',
  // Signed from the client's side: what reaches their balance is positive, what leaves it negative.
  amount: (_zone: string, credits: string) =>
    `((CASE WHEN p.type = ANY(${credits}::text[]) THEN 1 ELSE -1 END) * p.amount_minor::numeric / 100)::numeric(20, 2)::text`,
  currency: () => 'p.currency',
  status: () => 'p.status',
  type: () => 'p.type',
  method: () => 'p.method',
  aggregator: () => 'p.aggregator',
  comment: () => 'p.comment',
  senderProfileId: () => 'p.sender_profile_id::text',
  recipientProfileId: () => 'p.recipient_profile_id::text',
  transferId: () => 'p.transfer_id::text',
  createdBy: () => 'p.created_by::text',
  updatedAt: (zone: string) => `to_char(p.updated_at AT TIME ZONE ${zone}, 'YYYY-MM-DD HH24:MI:SS')`,
  updatedBy: () => 'p.updated_by::text',
});

type CellWriter = (value: string | null) => string;

/** How each column's value becomes a cell in `language`: labels for enums, checked forms for what the export formats. */
function cellWriter(column: PaymentsCsvColumn, language: Language): CellWriter {
  switch (column.kind) {
    case 'number':
      return (value) => csvValueCell(value, INTEGER);
    case 'amount':
      return (value) => csvValueCell(value, SIGNED_AMOUNT);
    case 'dateTime':
      return (value) => csvValueCell(value, DATE_TIME);
    case 'digits':
      return csvDigitsCell;
    case 'enum': {
      const enumName = column.enumName as EnumName;
      return (value) => csvCell(value === null ? null : enumLabel(enumName, value, language));
    }
    case 'text':
      return csvCell;
  }
}

/** One CSV line per row, each cell written by its column's writer. */
function rowWriter(language: Language): (row: Array<string | null>) => string {
  const writers = PAYMENTS_CSV_COLUMNS.map((column) => cellWriter(column, language));
  return (row) => row.map((value, index) => writers[index](value)).join(',') + CSV_LINE_END;
}

export type CsvChunks = AsyncGenerator<string, void, undefined>;

@QueryHandler(ExportPaymentsQuery)
export class ExportPaymentsHandler implements IQueryHandler<ExportPaymentsQuery, CsvChunks> {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Builds the statement now, so that a bad sort or an unknown time zone is refused before any byte is sent, and
   * answers a lazy sequence: nothing touches the database until the caller starts pulling. Every column is formatted
   * by PostgreSQL as the file shows it (amounts signed with two decimals, date-times in the asked zone), so the
   * process only labels, escapes and joins.
   */
  async execute({ request, language }: ExportPaymentsQuery): Promise<CsvChunks> {
    const timeZone = request.timeZone ?? PAYMENTS_CSV_DEFAULT_TIME_ZONE;
    await this.assertKnownTimeZone(timeZone);
    const parameters = new SqlParameters();
    const zone = parameters.add(timeZone);
    const credits = parameters.add(CREDITING_PAYMENT_TYPES);
    const columns = PAYMENTS_CSV_COLUMNS.map((column) => COLUMN_SQL[column.key](`${zone}::text`, credits)).join(', ');
    const where = paymentWhere(request, null, parameters);
    const sql = `SELECT ${columns} FROM payments p ${where} ORDER BY ${paymentOrderBy(request)}`;
    const header = UTF8_BOM + csvLine(paymentsCsvHeader(language, timeZone));
    return this.chunks(sql, parameters.values, header, rowWriter(language));
  }

  /** The pattern admits IANA names only; whether this server's time zone database knows the name, PostgreSQL says. */
  private async assertKnownTimeZone(timeZone: string): Promise<void> {
    try {
      await this.dataSource.query('SELECT now() AT TIME ZONE $1::text', [timeZone]);
    } catch (error) {
      if ((error as { code?: string }).code !== INVALID_PARAMETER_VALUE) throw error;
      throw new ValidationFailedError([{ field: 'timeZone', error: 'error.validation.invalid.format' }]);
    }
  }

  /**
   * Reads through a server-side cursor on a pooled connection of its own, inside one read-only REPEATABLE READ
   * transaction (the file is one consistent snapshot). Rows arrive as arrays straight from `pg`, which spares a
   * keyed object per row. When the caller stops early (its client went away), the generator's `finally` rolls the
   * transaction back, which closes the cursor, and returns the connection: the query stops with it.
   */
  private async *chunks(
    sql: string,
    parameters: unknown[],
    header: string,
    writeRow: (row: Array<string | null>) => string,
  ): CsvChunks {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    let open = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      await client.query(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${sql}`, parameters);
      yield header;
      for (;;) {
        const batch = await client.query<Array<string | null>>({
          text: `FETCH ${EXPORT_FETCH_BATCH_ROWS} FROM ${CURSOR_NAME}`,
          rowMode: 'array',
        });
        if (batch.rows.length > 0) yield batch.rows.map(writeRow).join('');
        if (batch.rows.length < EXPORT_FETCH_BATCH_ROWS) break;
      }
      await client.query('COMMIT');
      open = false;
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }
}
