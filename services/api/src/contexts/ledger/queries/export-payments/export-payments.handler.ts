import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DataSource } from 'typeorm';
import { ReadSource } from '../../../../platform/database/read-replica';
import {
  checkPaymentDateRange,
  checkPaymentKeyword,
  paymentOrderBy,
  paymentWhere,
} from '../payment-rows/payment-query';
import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { SubscriptionPaymentDetails } from '../payment-rows/subscription-payment-details.port';
import {
  CREDITING_PAYMENT_TYPES,
  CSV_FORMULA_START_CHARACTERS,
  type EnumName,
  enumLabel,
  ENUM_VALUES,
  type Language,
  PAYMENTS_CSV_COLUMNS,
  PAYMENTS_CSV_DEFAULT_TIME_ZONE,
  type PaymentsCsvColumn,
  paymentsCsvHeader,
} from '@kupa/proto';
import { ValidationFailedError } from '../../../../platform/http';
import { CrlfLineEnds, csvLine, UTF8_BOM } from './csv';
import { ExportPaymentsQuery, type CsvChunks } from './export-payments.query';

/**
 * The statement's tag, in a comment PostgreSQL keeps in `pg_stat_activity.query`: how the export's query is told
 * apart from others (its spec checks that a client who leaves stops it).
 */
export const EXPORT_QUERY_TAG = 'payments_export';

/** What the export gathers before one write to the client's socket. */
const EXPORT_WRITE_BYTES = 256 * 1024;

/** PostgreSQL's SQLSTATE for an unknown time zone name (`invalid_parameter_value`). */
const INVALID_PARAMETER_VALUE = '22023';

interface CellContext {
  /** The time zone's placeholder, cast to text. */
  zone: string;
  /** The placeholder of the payment types that credit the client. */
  credits: string;
  language: Language;
  parameters: SqlParameters;
}

/**
 * A text cell as `csvCell` writes it, computed by PostgreSQL: empty for NULL or '', and a leading `'` before a
 * character that would start a formula (proto's `CSV_FORMULA_START_CHARACTERS`, each one character to `left`). COPY adds the quotes a cell needs.
 */
function textCell(expression: string, parameters: SqlParameters): string {
  const starts = parameters.add(CSV_FORMULA_START_CHARACTERS);
  return `CASE WHEN left(${expression}, 1) = ANY(${starts}::text[]) THEN '''' || ${expression}
    ELSE NULLIF(${expression}, '') END`;
}

/** An enumerated column as its label in `language`; a value without a label is written as it is. */
function enumCell(source: string, enumName: EnumName, context: CellContext): string {
  const values = ENUM_VALUES[enumName].map(String);
  const labels = values.map((value) => enumLabel(enumName, value, context.language));
  const labelsArray = `${context.parameters.add(labels)}::text[]`;
  const valuesArray = `${context.parameters.add(values)}::text[]`;
  // Labels and values are both ours, never typed by a person: they need no guard.
  return `coalesce((${labelsArray})[array_position(${valuesArray}, ${source})], ${source})`;
}

/** The payments column behind each exported column that the export does not format itself. */
const COLUMN_SOURCES: Readonly<Record<string, string>> = Object.freeze({
  userUuid: 'p.user_uuid::text',
  userEmail: 'p.user_email',
  currency: 'p.currency',
  status: 'p.status',
  type: 'p.type',
  method: 'p.method',
  aggregator: 'p.aggregator',
  provider: 'coalesce(p.cashier_provider, p.card_provider)',
  comment: 'p.comment',
  senderProfileId: 'p.sender_profile_id::text',
  recipientProfileId: 'p.recipient_profile_id::text',
  transferId: 'p.transfer_id::text',
  createdBy: 'p.created_by::text',
  updatedBy: 'p.updated_by::text',
  promoCode: 'sp.promo_code',
});

/**
 * What PostgreSQL writes into a column's cell, `p` being the payments row. Numbers, signed amounts and date-times
 * are produced in their exact form, which nothing typed by a person reaches; digit-only ids become the `="…"` text
 * formula (`csvDigitsCell`); everything else is a guarded text cell.
 */
function cellSql(column: PaymentsCsvColumn, context: CellContext): string {
  const dateTime = (expression: string) =>
    `to_char(${expression} AT TIME ZONE ${context.zone}, 'YYYY-MM-DD HH24:MI:SS')`;
  switch (column.key) {
    case 'paymentId':
      return 'p.payment_id::text';
    case 'createdAt':
      return dateTime('p.created_at');
    case 'updatedAt':
      return dateTime('p.updated_at');
    case 'amount':
      // Signed from the client's side: what reaches their balance is positive, what leaves it negative.
      return `((CASE WHEN p.type = ANY(${context.credits}::text[]) THEN 1 ELSE -1 END)
        * p.amount_minor::numeric / 100)::numeric(20, 2)::text`;
    case 'promoDiscount':
      return `(sp.promo_discount_minor::numeric / 100)::numeric(20, 2)::text`;
  }
  const source = COLUMN_SOURCES[column.key];
  if (source === undefined) throw new Error(`No SQL for the export column ${column.key}`);
  switch (column.kind) {
    case 'enum':
      return enumCell(source, column.enumName as EnumName, context);
    case 'digits':
      return `CASE WHEN ${source} ~ '^[0-9]+$' THEN '="' || ${source} || '"'
        ELSE ${textCell(source, context.parameters)} END`;
    default:
      return textCell(source, context.parameters);
  }
}

@QueryHandler(ExportPaymentsQuery)
export class ExportPaymentsHandler implements IQueryHandler<ExportPaymentsQuery, CsvChunks> {
  constructor(
    private readonly reads: ReadSource,
    private readonly subscriptionPayments: SubscriptionPaymentDetails,
  ) {}

  /**
   * Builds the statement now, so that a bad sort or an unknown time zone is refused before any byte is sent, and
   * answers a lazy sequence: nothing touches the database until the caller starts pulling. PostgreSQL writes the
   * whole file body with `COPY … TO STDOUT (FORMAT csv)`, every cell formatted, labelled, guarded and quoted by the
   * database, so this process only passes bytes on (docs/adr/0039-export-by-copy.md). The database is chosen once,
   * here: a replica that fails once the file has begun cannot hand it to the primary (docs/adr/0113-read-replicas.md).
   */
  async execute({ request, language }: ExportPaymentsQuery): Promise<CsvChunks> {
    checkPaymentDateRange(request);
    checkPaymentKeyword(request, null);
    const timeZone = request.timeZone ?? PAYMENTS_CSV_DEFAULT_TIME_ZONE;
    const db = await this.reads.run('payments-export', async (candidate) => {
      await this.assertKnownTimeZone(candidate, timeZone);
      return candidate;
    });
    const parameters = new SqlParameters();
    const context: CellContext = {
      zone: `${parameters.add(timeZone)}::text`,
      credits: parameters.add(CREDITING_PAYMENT_TYPES),
      language,
      parameters,
    };
    const cells = PAYMENTS_CSV_COLUMNS.map((column) => cellSql(column, context)).join(',\n  ');
    const where = paymentWhere(request, null, parameters, 'staff', this.subscriptionPayments);
    // The promo code columns come from one outer join on the payment id (docs/adr/0088-promo-codes.md).
    const select = `SELECT ${cells} FROM payments p
      LEFT JOIN ${this.subscriptionPayments.relation} sp ON sp.payment_id = p.payment_id
      ${where} ORDER BY ${paymentOrderBy(request)}`;
    // COPY takes no parameters: the values go in as escaped literals.
    const copy = `/* ${EXPORT_QUERY_TAG} */ COPY (${parameters.inline(select)}) TO STDOUT WITH (FORMAT csv)`;
    const header = UTF8_BOM + csvLine(paymentsCsvHeader(language, timeZone));
    return this.chunks(db, copy, header);
  }

  /** The pattern admits IANA names only; whether this server's time zone database knows the name, PostgreSQL says. */
  private async assertKnownTimeZone(db: DataSource, timeZone: string): Promise<void> {
    try {
      await db.query('SELECT now() AT TIME ZONE $1::text', [timeZone]);
    } catch (error) {
      if ((error as { code?: string }).code !== INVALID_PARAMETER_VALUE) throw error;
      throw new ValidationFailedError([{ field: 'timeZone', error: 'error.validation.invalid.format' }]);
    }
  }

  /**
   * Streams the COPY on a pooled connection of its own, inside one read-only REPEATABLE READ transaction (the file
   * is one consistent snapshot). Reading the stream as an async iterator pulls it, so a slow reader holds the
   * database back instead of filling memory. A connection whose COPY did not run to its end is destroyed rather
   * than returned to the pool: closing it is what stops PostgreSQL from writing the rest.
   */
  private async *chunks(db: DataSource, copy: string, header: string): CsvChunks {
    const pool = (db.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    let finished = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      yield header;
      const lineEnds = new CrlfLineEnds();
      // The driver hands over what one socket read brought (about 14 KiB); writing each to the client's socket on
      // its own made the socket writes the largest cost in this process (docs/benchmarks.md). A quarter MiB at a time
      // keeps memory flat and the writes few.
      let held: Buffer[] = [];
      let heldBytes = 0;
      for await (const chunk of client.query(copyTo(copy)) as AsyncIterable<Buffer>) {
        const converted = lineEnds.convert(chunk);
        held.push(converted);
        heldBytes += converted.length;
        if (heldBytes < EXPORT_WRITE_BYTES) continue;
        yield Buffer.concat(held, heldBytes);
        held = [];
        heldBytes = 0;
      }
      if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
      await client.query('COMMIT');
      finished = true;
    } finally {
      client.release(finished ? undefined : true);
    }
  }
}
