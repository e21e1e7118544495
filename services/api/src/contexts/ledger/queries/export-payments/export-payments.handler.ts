import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { paymentOrderBy, paymentWhere } from '../payment-rows/payment-query';
import { SqlParameters } from '../payment-rows/sql-parameters';
import { csvLine, UTF8_BOM } from './csv';
import { ExportPaymentsQuery } from './export-payments.query';

/**
 * Rows fetched from the server-side cursor per round trip. Memory stays bounded by one batch whatever the export's
 * size; larger batches only shave round trips (measured in docs/benchmarks.md).
 */
export const EXPORT_FETCH_BATCH_ROWS = 2000;
const CURSOR_NAME = 'payments_export';

export const PAYMENTS_CSV_HEADER = [
  'paymentId',
  'createdAt',
  'userUuid',
  'userEmail',
  'amount',
  'currency',
  'status',
  'type',
  'method',
  'aggregator',
  'comment',
  'senderProfileId',
  'recipientProfileId',
  'transferId',
  'createdBy',
  'updatedAt',
  'updatedBy',
] as const;

/**
 * Every column already formatted by PostgreSQL as the CSV shows it, so the process only escapes and joins: amounts
 * as dollars with two decimals, times as ISO-8601 in UTC.
 */
const CSV_COLUMNS = `p.payment_id::text, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  p.user_uuid::text, p.user_email, (p.amount_minor::numeric / 100)::numeric(20, 2)::text, p.currency, p.status, p.type,
  p.method, p.aggregator, p.comment, p.sender_profile_id::text, p.recipient_profile_id::text, p.transfer_id::text,
  p.created_by::text, to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), p.updated_by::text`;

export type CsvChunks = AsyncGenerator<string, void, undefined>;

@QueryHandler(ExportPaymentsQuery)
export class ExportPaymentsHandler implements IQueryHandler<ExportPaymentsQuery, CsvChunks> {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Builds the statement now, so that a bad sort is refused before any byte is sent, and answers a lazy sequence:
   * nothing touches the database until the caller starts pulling.
   */
  async execute({ request }: ExportPaymentsQuery): Promise<CsvChunks> {
    const parameters = new SqlParameters();
    const where = paymentWhere(request, null, parameters);
    const sql = `SELECT ${CSV_COLUMNS} FROM payments p ${where} ORDER BY ${paymentOrderBy(request)}`;
    return this.chunks(sql, parameters.values);
  }

  /**
   * Reads through a server-side cursor on a pooled connection of its own, inside one read-only REPEATABLE READ
   * transaction (the file is one consistent snapshot). Rows arrive as arrays straight from `pg`, which spares a
   * keyed object per row. When the caller stops early (its client went away), the generator's `finally` rolls the
   * transaction back, which closes the cursor, and returns the connection: the query stops with it.
   */
  private async *chunks(sql: string, parameters: unknown[]): CsvChunks {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    let open = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      await client.query(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${sql}`, parameters);
      yield UTF8_BOM + csvLine(PAYMENTS_CSV_HEADER);
      for (;;) {
        const batch = await client.query<Array<string | null>>({
          text: `FETCH ${EXPORT_FETCH_BATCH_ROWS} FROM ${CURSOR_NAME}`,
          rowMode: 'array',
        });
        if (batch.rows.length > 0) yield batch.rows.map(csvLine).join('');
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
