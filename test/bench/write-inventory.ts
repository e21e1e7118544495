/**
 * The counting shared by the write inventories of issue 36 (`transfer-writes.ts`, `purchase-writes.ts`): a TCP relay
 * between the built server and PostgreSQL that reads the frontend protocol, and `pg_stat_user_tables` read before
 * and after one operation. `countWrites` runs one operation and prints as JSON:
 *
 * - `transaction`: the statements of the command's own transaction (the connection whose `START TRANSACTION` …
 *   `COMMIT` first inserted into `events` in the window), each with its SQL text, its parameter bytes and
 *   PostgreSQL's completion tag (`INSERT 0 2`: the rows of the statement's main table);
 * - `otherStatementsInWindow`: every other statement between the request and its answer (the request's reads on
 *   other connections, and any background loop's poll that fell into the window);
 * - `bytesToPostgres`: what the server sent PostgreSQL between the request and its answer, on the wire, and as SQL text
 *   plus parameter values;
 * - `writesAfterAnswer`: the writing statements from the answer until the operation's after-work is done (the
 *   processors' and jobs' `INSERT`/`UPDATE`/`DELETE`, with their tags), and how many statements of any kind ran then;
 * - `tables`: per table, rows inserted, updated (HOT) and deleted by the operation and the processors after it
 *   (`pg_stat_user_tables` from before the request until `STATS_WAIT_MS` after the after-work is done, minus the same
 *   wait without an operation), with the table's indexes and the index insertions they imply (an insert or non-HOT
 *   update adds one per index; a partial index only when the row meets its predicate, so those are an upper bound);
 * - `trigramKeys`: the trigram keys the payment rows written since the request put into the GIN index.
 */
import { createServer, type Socket, connect } from 'node:net';
import pg from 'pg';
import { freshDatabaseUrl, startKupaServer } from '../support/kupa-server.ts';
import { Api } from './http.ts';

export const WRITES_ADMIN = { email: 'writes-admin@kupa.test', password: 'Writes-Admin-Pass-1!' };
/** PostgreSQL 15 flushes an idle backend's table counters within 10 s (`PGSTAT_IDLE_INTERVAL`). */
const STATS_WAIT_MS = 11_000;

export interface Statement {
  connection: number;
  text: string;
  parameterBytes: number;
  tag: string | null;
  at: number;
}

/** A relay that reads the frontend protocol going to PostgreSQL: statements, parameters and bytes per connection. */
export class CountingRelay {
  readonly statements: Statement[] = [];
  private readonly bytesByConnection = new Map<number, number>();
  private connections = 0;
  private readonly server = createServer((client) => this.relay(client));

  constructor(
    private readonly target: { host: string; port: number },
    private readonly now: () => number,
  ) {}

  listen(): Promise<number> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as { port: number }).port)),
    );
  }

  bytes(): Map<number, number> {
    return new Map(this.bytesByConnection);
  }

  close(): void {
    this.server.close();
  }

  private relay(client: Socket): void {
    const id = ++this.connections;
    const upstream = connect(this.target.port, this.target.host);
    const pending: Statement[] = [];
    let named = new Map<string, string>();
    let lastParsed = '';
    let fromClient = Buffer.alloc(0);
    let started = false;
    let fromServer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      this.bytesByConnection.set(id, (this.bytesByConnection.get(id) ?? 0) + chunk.length);
      fromClient = Buffer.concat([fromClient, chunk]);
      for (;;) {
        if (!started) {
          if (fromClient.length < 4) break;
          const length = fromClient.readInt32BE(0);
          if (fromClient.length < length) break;
          fromClient = fromClient.subarray(length);
          started = true;
          continue;
        }
        if (fromClient.length < 5) break;
        const length = fromClient.readInt32BE(1);
        if (fromClient.length < 1 + length) break;
        const type = String.fromCharCode(fromClient[0]);
        const body = fromClient.subarray(5, 1 + length);
        fromClient = fromClient.subarray(1 + length);
        if (type === 'Q') {
          const statement = {
            connection: id,
            text: cString(body, 0).value,
            parameterBytes: 0,
            tag: null,
            at: this.now(),
          };
          this.statements.push(statement);
          pending.push(statement);
        } else if (type === 'P') {
          const name = cString(body, 0);
          lastParsed = cString(body, name.next).value;
          if (name.value) named.set(name.value, lastParsed);
        } else if (type === 'B') {
          const portal = cString(body, 0);
          const source = cString(body, portal.next);
          let offset = source.next;
          const formats = body.readInt16BE(offset);
          offset += 2 + 2 * formats;
          const count = body.readInt16BE(offset);
          offset += 2;
          let parameterBytes = 0;
          for (let index = 0; index < count; index += 1) {
            const size = body.readInt32BE(offset);
            offset += 4 + Math.max(size, 0);
            parameterBytes += Math.max(size, 0);
          }
          const text = source.value ? (named.get(source.value) ?? source.value) : lastParsed;
          const statement = { connection: id, text, parameterBytes, tag: null, at: this.now() };
          this.statements.push(statement);
          pending.push(statement);
        } else if (type === 'X') {
          named = new Map();
        }
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      fromServer = Buffer.concat([fromServer, chunk]);
      for (;;) {
        // The server's first answer to a startup may be a lone 'N'/'S' byte for an SSL request; this relay sees none,
        // since the server connects without TLS on loopback.
        if (fromServer.length < 5) break;
        const length = fromServer.readInt32BE(1);
        if (fromServer.length < 1 + length) break;
        const type = String.fromCharCode(fromServer[0]);
        const body = fromServer.subarray(5, 1 + length);
        fromServer = fromServer.subarray(1 + length);
        if (type === 'C') {
          const statement = pending.shift();
          if (statement) statement.tag = cString(body, 0).value;
        } else if (type === 'E' || type === 'I') {
          const statement = pending.shift();
          if (statement) statement.tag = type === 'E' ? 'ERROR' : 'EMPTY';
        }
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }
}

function cString(buffer: Buffer, offset: number): { value: string; next: number } {
  const zero = buffer.indexOf(0, offset);
  return { value: buffer.toString('utf8', offset, zero), next: zero + 1 };
}

export interface TableCounts {
  ins: number;
  upd: number;
  hot: number;
  del: number;
}

async function tableCounts(db: pg.Client): Promise<Map<string, TableCounts>> {
  const { rows } = await db.query<TableCounts & { relname: string }>(
    `SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot, n_tup_del::int AS del
       FROM pg_stat_user_tables`,
  );
  // A fresh snapshot next time: the statistics are read once per transaction otherwise.
  await db.query('SELECT pg_stat_clear_snapshot()');
  return new Map(rows.map(({ relname, ...counts }) => [relname, counts]));
}

function difference(after: Map<string, TableCounts>, before: Map<string, TableCounts>): Map<string, TableCounts> {
  const out = new Map<string, TableCounts>();
  for (const [table, now] of after) {
    const then = before.get(table) ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    out.set(table, {
      ins: now.ins - then.ins,
      upd: now.upd - then.upd,
      hot: now.hot - then.hot,
      del: now.del - then.del,
    });
  }
  return out;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One operation to count: made ready (users, money, warm-up) by `prepare`, which answers how to run it. */
export interface WriteScenario {
  prepare(api: Api, admin: string, baseUrl: string, db: pg.Client): Promise<PreparedOperation>;
}

export interface PreparedOperation {
  /** Runs the operation once; answers its HTTP answer, read. Throws on an unexpected status. */
  run(): Promise<unknown>;
  /** Waits until the work the operation caused after its answer is done (processors, jobs). */
  settle(db: pg.Client, answer: unknown): Promise<void>;
}

// A `WITH` may hide its write in a CTE; `FOR UPDATE` in a read is no write.
const WRITING = /^\s*(WITH\b[\s\S]*?)?(?<!FOR\s+)\b(INSERT|UPDATE|DELETE)\b/i;

/** Transactions (and statements outside one) that wrote: what a group commit of the after-work would gather. */
function writingTransactions(statements: Statement[]): number {
  const open = new Map<number, boolean>();
  let count = 0;
  for (const statement of statements) {
    if (/^\s*(START TRANSACTION|BEGIN)/i.test(statement.text)) open.set(statement.connection, false);
    else if (/^\s*(COMMIT|ROLLBACK)/i.test(statement.text)) {
      if (open.get(statement.connection)) count += 1;
      open.delete(statement.connection);
    } else if (WRITING.test(statement.text)) {
      if (open.has(statement.connection)) open.set(statement.connection, true);
      else count += 1;
    }
  }
  return count;
}

export async function countWrites(scenario: WriteScenario): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error('Set DATABASE_URL to a PostgreSQL server (postgres://postgres@127.0.0.1:5432/postgres)');
  const database = await freshDatabaseUrl();
  if (!database) throw new Error('No database');
  const target = new URL(database.url);
  const started = performance.now();
  const relay = new CountingRelay({ host: target.hostname, port: Number(target.port || 5432) }, () =>
    Math.round(performance.now() - started),
  );
  const relayUrl = new URL(database.url);
  relayUrl.hostname = '127.0.0.1';
  relayUrl.port = String(await relay.listen());
  const server = await startKupaServer({
    DATABASE_URL: relayUrl.toString(),
    ADMIN_EMAIL: WRITES_ADMIN.email,
    ADMIN_PASSWORD: WRITES_ADMIN.password,
    LOG_LEVEL: 'error',
    WEB_CONCURRENCY: '1',
    WORKER_PORT: '0',
  });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const api = new Api(server.baseUrl);
    const admin = await api.signIn(WRITES_ADMIN.email, WRITES_ADMIN.password);
    const operation = await scenario.prepare(api, admin, server.baseUrl, db);
    await sleep(STATS_WAIT_MS);

    const idleBefore = await tableCounts(db);
    await sleep(STATS_WAIT_MS);
    const idle = difference(await tableCounts(db), idleBefore);

    const lastPayment = await db.query<{ id: string }>('SELECT coalesce(max(payment_id), 0)::text AS id FROM payments');
    const before = await tableCounts(db);
    const bytesBefore = relay.bytes();
    const from = relay.statements.length;
    const answer = await operation.run();
    const bytesAfter = relay.bytes();
    const answeredAt = relay.statements.length;
    const window = relay.statements.slice(from);
    await operation.settle(db, answer);
    const afterAnswer = relay.statements.slice(answeredAt);
    await sleep(STATS_WAIT_MS);
    const writes = difference(await tableCounts(db), before);

    const ownConnection = window.find((statement) => /INSERT INTO events\b/.test(statement.text))?.connection;
    const onOwn = window.filter((statement) => statement.connection === ownConnection);
    // The transaction around the events' insert: the same pooled connection may have run a processor's batch in the
    // window before it.
    const insertAt = onOwn.findIndex((statement) => /INSERT INTO events\b/.test(statement.text));
    const begin = onOwn.findLastIndex(
      (statement, index) => index < insertAt && /^\s*(START TRANSACTION|BEGIN)/i.test(statement.text),
    );
    const commit = onOwn.findIndex((statement, index) => index > insertAt && /^\s*COMMIT/i.test(statement.text));
    const transaction = onOwn.slice(begin, commit + 1);
    const summary = (statement: Statement) => ({
      connection: statement.connection,
      sql: statement.text.replace(/\s+/g, ' ').trim(),
      textBytes: Buffer.byteLength(statement.text),
      parameterBytes: statement.parameterBytes,
      tag: statement.tag,
    });
    let wireBytes = 0;
    for (const [connection, bytes] of bytesAfter) wireBytes += bytes - (bytesBefore.get(connection) ?? 0);

    const indexes = await db.query<{ table: string; index: string; method: string; predicate: string | null }>(
      `SELECT t.relname AS table, i.relname AS index, am.amname AS method, pg_get_expr(x.indpred, x.indrelid) AS predicate
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_am am ON am.oid = i.relam JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() ORDER BY t.relname, i.relname`,
    );
    const tables = [...writes]
      .map(([table, counts]) => {
        const quiet = idle.get(table) ?? { ins: 0, upd: 0, hot: 0, del: 0 };
        const net = {
          ins: counts.ins - quiet.ins,
          upd: counts.upd - quiet.upd,
          hot: counts.hot - quiet.hot,
          del: counts.del - quiet.del,
        };
        const own = indexes.rows.filter((row) => row.table === table);
        const rowsIndexed = net.ins + net.upd - net.hot;
        // `event_commits` is written by the events' deferred trigger at the transaction's COMMIT.
        const writer = table === 'event_commits' ? 'events' : table;
        const byCommand = transaction.some((statement) =>
          new RegExp(`\\b(INSERT INTO|UPDATE)\\s+${writer}\\b`).test(statement.text),
        );
        return {
          table,
          writtenBy: byCommand ? 'the command' : 'after the commit',
          ...net,
          indexes: own.map((row) => `${row.index} (${row.method}${row.predicate ? `, WHERE ${row.predicate}` : ''})`),
          indexInsertions: rowsIndexed * own.filter((row) => !row.predicate).length,
          partialIndexInsertionsAtMost: rowsIndexed * own.filter((row) => row.predicate).length,
        };
      })
      // A background loop that wrote more in the quiet wait than beside the transfer leaves negative counts: noise.
      .filter((row) => row.ins > 0 || row.upd > 0 || row.del > 0);
    const byCommand = (row: { writtenBy: string }) => row.writtenBy === 'the command';
    const trigrams = await db.query<{ payment_id: string; keys: number }>(
      `SELECT payment_id::text, coalesce(array_length(show_trgm(search_text), 1), 0) AS keys
         FROM payments WHERE payment_id > $1::bigint ORDER BY payment_id`,
      [lastPayment.rows[0].id],
    );
    const textBytes = window.reduce((sum, statement) => sum + Buffer.byteLength(statement.text), 0);
    const parameterBytes = window.reduce((sum, statement) => sum + statement.parameterBytes, 0);
    process.stdout.write(
      JSON.stringify(
        {
          transaction: transaction.map(summary),
          otherStatementsInWindow: window.filter((statement) => !transaction.includes(statement)).map(summary),
          bytesToPostgres: { wire: wireBytes, sqlTextAndParameters: textBytes + parameterBytes },
          writesAfterAnswer: {
            statements: afterAnswer.length,
            writingTransactions: writingTransactions(afterAnswer),
            writing: afterAnswer.filter((statement) => WRITING.test(statement.text)).map(summary),
          },
          tables,
          totals: {
            commandRowsInserted: tables.filter(byCommand).reduce((sum, row) => sum + row.ins, 0),
            commandRowsUpdated: tables.filter(byCommand).reduce((sum, row) => sum + row.upd, 0),
            commandIndexInsertions: tables.filter(byCommand).reduce((sum, row) => sum + row.indexInsertions, 0),
            commandPartialIndexInsertionsAtMost: tables
              .filter(byCommand)
              .reduce((sum, row) => sum + row.partialIndexInsertionsAtMost, 0),
            rowsInserted: tables.reduce((sum, row) => sum + row.ins, 0),
            rowsUpdated: tables.reduce((sum, row) => sum + row.upd, 0),
            hotUpdates: tables.reduce((sum, row) => sum + row.hot, 0),
            indexInsertions: tables.reduce((sum, row) => sum + row.indexInsertions, 0),
            partialIndexInsertionsAtMost: tables.reduce((sum, row) => sum + row.partialIndexInsertionsAtMost, 0),
          },
          trigramKeys: trigrams.rows,
          idleLoopsWrites: [...idle].filter(([, counts]) => counts.ins || counts.upd || counts.del),
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    await db.end();
    await server.stop();
    relay.close();
    await database.drop();
  }
}
