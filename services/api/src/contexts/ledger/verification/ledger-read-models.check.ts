import { canonicalJson, PROVIDER_CURRENCY, SYSTEM_ACTOR_NAME, USER_ACCOUNT_PREFIX } from '@kupa/proto';
import {
  commitWindow,
  REPLAYED_EVENT_COLUMNS,
  type ReplayedEventRow,
  upcastRow,
} from '../../../platform/event-store/event-rows';
import type { DataSource } from 'typeorm';
import { databaseUrlOf, type SqlReader } from '../../../platform/database/read-only-snapshot';
import type { EventTypeRegistry } from '../../../platform/event-store/event-type-registry';
import { runWorkerThread } from '../../../platform/threads/worker-thread';
import { isReplayedEvent, type LedgerReplay, type LedgerReplayer, startLedgerReplay } from '../domain/replay-ledger';
import type { DifferenceSink, KeptDifferences, LedgerDifference } from './differences';

/**
 * Feeds one stored event to a ledger replay, decoded to its current shape, when it is one the ledger replays: the
 * step of the full verify's walk and of the since-checkpoint one alike.
 */
export function replayRow(replayer: LedgerReplayer, row: ReplayedEventRow, eventTypes: EventTypeRegistry): void {
  if (!isReplayedEvent({ streamId: row.stream_id, type: row.type })) return;
  const { data, metadata } = upcastRow(row, eventTypes);
  replayer.apply({
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data,
    metadata: { occurredAt: metadata.occurredAt, actor: metadata.actor },
    globalPosition: row.global_position,
  });
}

/** Rows read per round trip from the event store and from each read model; bounds each query's memory. */
export const VERIFY_READ_BATCH_ROWS = 5000;

export interface LedgerCheckCounts {
  events: number;
  ledgerEvents: number;
  transactions: number;
  payments: number;
  ledgerEntries: number;
  userAccounts: number;
  walletSnapshots: number;
  replayMs: number;
}

/** The form `Date#toISOString` writes (UTC, milliseconds), in which both sides of a time comparison are put. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A read model's timestamp column as text in that form, so that rows need no date parsing in Node (with millions of
 * rows it showed in the profile). PostgreSQL's `MS` truncates microseconds, as a JavaScript Date does.
 */
function isoInstantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;
}

function instant(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (ISO_INSTANT.test(value)) return value;
  return new Date(value).toISOString();
}

/**
 * The ledger's part of `kupa ledger verify` (docs/ARCHITECTURE.md, Operations): replays every ledger event through
 * the pure `replayLedger` (balances, zero-sum transactions, overdrafts, transfers, payments, wallet states) and
 * compares each of the ledger's read models row by row with what the replay says it must hold. It reads through the
 * caller's reader, which holds one snapshot for the whole check.
 *
 * Events are read in `global_position` order, which within a stream follows versions (events of one stream are
 * inserted under its row lock). The store's gap-safe `readAll` is not used here: it holds back events of
 * transactions newer than the oldest one still running, which a snapshot already shows in the read models.
 */
export async function checkLedgerReadModels(
  reader: SqlReader,
  eventTypes: EventTypeRegistry,
  differences: DifferenceSink,
  checkpointPosition: string | null = null,
): Promise<LedgerCheckCounts & { balancesAtCheckpoint: Record<string, number> | null }> {
  const { replay, eventCount, replayMs } = await replayLedgerEvents(reader, eventTypes);
  const balancesAtCheckpoint =
    checkpointPosition === null ? null : await balancesAt(reader, eventTypes, replay, checkpointPosition);
  for (const problem of replay.problems) {
    const subject = problem.streamId ? `stream ${problem.streamId} v${problem.streamVersion}` : 'ledger';
    differences.add({ source: 'replay', subject, message: `${problem.kind}: ${problem.message}` });
  }
  return {
    events: eventCount,
    ledgerEvents: replay.eventCount,
    transactions: replay.transactionCount,
    payments: await comparePayments(reader, replay, differences),
    ledgerEntries: await compareEntries(reader, replay, differences),
    userAccounts: await compareAccountBalances(reader, replay, differences),
    walletSnapshots: await compareSnapshots(reader, replay, differences),
    replayMs,
    balancesAtCheckpoint,
  };
}

/**
 * Every account's balance at commit position `position` (ADR 0111): the whole replay's, less what the events this
 * snapshot shows after that position moved. They are the few appended while the verify ran, so a second replay of them
 * alone costs little, where filtering every event of the history by its commit would cost a join per event.
 */
async function balancesAt(
  reader: SqlReader,
  eventTypes: EventTypeRegistry,
  replay: LedgerReplay,
  position: string,
): Promise<Record<string, number>> {
  const later = startLedgerReplay();
  let after = position;
  for (;;) {
    const rows: Array<ReplayedEventRow & { commit_position: string }> = await reader.query(
      `SELECT window_commits.commit_position::text AS commit_position, events.global_position::text AS global_position,
              events.stream_id, events.stream_version, events.type, events.data, events.metadata
         FROM ${commitWindow('$1::bigint', '$2::int')}
        ORDER BY window_commits.commit_position, events.global_position`,
      [after, VERIFY_READ_BATCH_ROWS],
    );
    for (const row of rows) {
      if (!isReplayedEvent({ streamId: row.stream_id, type: row.type })) continue;
      const { data, metadata } = upcastRow(row, eventTypes);
      later.apply({
        streamId: row.stream_id,
        streamVersion: row.stream_version,
        type: row.type,
        data,
        metadata: { occurredAt: metadata.occurredAt, actor: metadata.actor },
      });
    }
    if (rows.length < VERIFY_READ_BATCH_ROWS) break;
    after = rows[rows.length - 1].commit_position;
  }
  const moved = later.finish().accountBalances;
  const balances: Record<string, number> = { ...replay.accountBalances };
  for (const [account, movedMinor] of Object.entries(moved)) balances[account] = (balances[account] ?? 0) - movedMinor;
  return balances;
}

/** What `kupa ledger verify` hands the ledger's check in a worker thread. */
export interface LedgerCheckWorkerRequest {
  databaseUrl: string;
  /** When set, the worker also answers every account's balance at this commit position, for a checkpoint. */
  checkpointPosition: string | null;
  /** Differences the worker sends back with their details; beyond this it only counts them. */
  differencesKept: number;
}

export interface LedgerCheckWorkerResult {
  counts: LedgerCheckCounts;
  balancesAtCheckpoint: Record<string, number> | null;
  kept: LedgerDifference[];
  count: number;
}

/**
 * `checkLedgerReadModels` in a worker thread with its own connection and snapshot of the data source's database, so
 * that decoding and replaying the ledger's events run on another core than the rest of `kupa ledger verify`, and the
 * replay's large state is collected in a heap of its own (ADR 0043). Its differences join `differences`.
 */
export async function checkLedgerReadModelsInWorker(
  dataSource: DataSource,
  differences: KeptDifferences,
  checkpointPosition: string | null = null,
): Promise<{ counts: LedgerCheckCounts; balancesAtCheckpoint: Record<string, number> | null }> {
  const request: LedgerCheckWorkerRequest = {
    databaseUrl: databaseUrlOf(dataSource),
    differencesKept: differences.limit,
    checkpointPosition,
  };
  const result = await runWorkerThread<LedgerCheckWorkerRequest, LedgerCheckWorkerResult>(
    { directory: __dirname, name: 'ledger-check.worker' },
    request,
  );
  differences.merge(result);
  return { counts: result.counts, balancesAtCheckpoint: result.balancesAtCheckpoint };
}

/**
 * Every event in store order, the ledger's replayed as each batch arrives: the replay keeps its state but no batch
 * outlives its round trip, so memory follows the number of payments and postings, not the length of the history.
 * `replayMs` is the time spent decoding and replaying the ledger's events, without the round trips.
 */
async function replayLedgerEvents(
  reader: SqlReader,
  eventTypes: EventTypeRegistry,
): Promise<{ replay: LedgerReplay; eventCount: number; replayMs: number }> {
  const replayer = startLedgerReplay();
  let replayMs = 0;
  let eventCount = 0;
  let after = '0';
  for (;;) {
    // Every keyset read below orders by the table's column, not the bare name: the select lists rename a column's
    // text form to that name, and ORDER BY prefers an output name, which would sort numbers as text.
    const rows: ReplayedEventRow[] = await reader.query(
      `SELECT ${REPLAYED_EVENT_COLUMNS} FROM events WHERE global_position > $1::bigint ORDER BY events.global_position LIMIT $2`,
      [after, VERIFY_READ_BATCH_ROWS],
    );
    eventCount += rows.length;
    const batchStarted = performance.now();
    for (const row of rows) replayRow(replayer, row, eventTypes);
    replayMs += performance.now() - batchStarted;
    if (rows.length < VERIFY_READ_BATCH_ROWS) break;
    after = rows[rows.length - 1].global_position;
  }
  const finishStarted = performance.now();
  const replay = replayer.finish();
  replayMs += performance.now() - finishStarted;
  return { replay, eventCount, replayMs };
}

async function comparePayments(reader: SqlReader, replay: LedgerReplay, differences: DifferenceSink): Promise<number> {
  const seen = new Set<number>();
  let after = '0';
  for (;;) {
    const rows: Array<Record<string, string | boolean | null>> = await reader.query(
      `SELECT payment_id::text, user_uuid::text, user_email, amount_minor::text, currency, status, method, type, aggregator,
              comment, counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id::text,
              ${isoInstantSql('created_at')}, created_by, ${isoInstantSql('updated_at')}, updated_by, public_note,
              created_by_public, updated_by_public,
              bonus_payment_id::text, bonus_for_payment_id::text,
              cashier_provider, cashier_invoice_id, cashier_invoice_url, cashier_pay_currency, provider_payment_id,
              provider_status, amount_asked_minor::text, amount_received_minor::text, discount_percent,
              card_provider, card_checkout_session_id, review_currency,
              review_amount_minor::text
         FROM payments WHERE payment_id > $1::bigint ORDER BY payments.payment_id LIMIT $2`,
      [after, VERIFY_READ_BATCH_ROWS],
    );
    for (const row of rows) {
      const paymentId = Number(row.payment_id);
      seen.add(paymentId);
      const subject = `payment ${paymentId}`;
      const expected = replay.payments[paymentId];
      if (!expected) {
        differences.add({
          source: 'payments',
          subject,
          message: 'row has no payment in the events',
          expected: 'no row',
          actual: 'row',
        });
        continue;
      }
      const compare = (field: string, want: unknown, have: unknown): void =>
        differences.field('payments', subject, field, want, have);
      compare('user_uuid', expected.userUuid, row.user_uuid);
      compare('user_email', expected.userEmail, row.user_email);
      compare('amount_minor', expected.amountMinor, row.amount_minor);
      compare('currency', expected.currency, row.currency);
      compare('status', expected.status, row.status);
      compare('method', expected.method, row.method);
      compare('type', expected.type, row.type);
      compare('aggregator', expected.aggregator, row.aggregator);
      compare('comment', expected.comment, row.comment);
      compare('counter_account', expected.counterAccount, row.counter_account);
      compare('correction', expected.correction, row.correction);
      compare('sender_profile_id', expected.senderProfileId, row.sender_profile_id);
      compare('recipient_profile_id', expected.recipientProfileId, row.recipient_profile_id);
      compare('transfer_id', expected.transferId, row.transfer_id);
      compare('created_at', instant(expected.createdAt), instant(row.created_at as string | null));
      compare('updated_at', instant(expected.updatedAt), instant(row.updated_at as string | null));
      compare('created_by', expected.createdBy ?? SYSTEM_ACTOR_NAME, row.created_by);
      compare('updated_by', expected.updatedBy ?? SYSTEM_ACTOR_NAME, row.updated_by);
      compare('public_note', expected.publicNote, row.public_note);
      compare('created_by_public', expected.createdByPublic, row.created_by_public);
      compare('updated_by_public', expected.updatedByPublic, row.updated_by_public);
      compare('bonus_payment_id', expected.bonusPaymentId ?? null, row.bonus_payment_id);
      compare('bonus_for_payment_id', expected.bonusForPaymentId ?? null, row.bonus_for_payment_id);
      const cashier = expected.cashier;
      compare('cashier_provider', cashier?.provider ?? null, row.cashier_provider);
      compare('cashier_invoice_id', cashier?.invoiceId ?? null, row.cashier_invoice_id);
      compare('cashier_invoice_url', cashier?.invoiceUrl ?? null, row.cashier_invoice_url);
      compare('cashier_pay_currency', cashier?.payCurrency ?? null, row.cashier_pay_currency);
      // The provider's payment, status and amounts are the cashier's on a crypto deposit, the card's on a card one.
      const card = expected.card;
      const provider = cashier ?? card;
      compare('card_provider', card?.provider ?? null, row.card_provider);
      compare('card_checkout_session_id', card?.checkoutSessionId ?? null, row.card_checkout_session_id);
      const held = cashier?.heldMinor ?? null;
      compare(
        'review_currency',
        card?.mismatch?.currency ?? (held === null ? null : PROVIDER_CURRENCY),
        row.review_currency,
      );
      compare('review_amount_minor', card?.mismatch?.amountTotalMinor ?? held, row.review_amount_minor);
      compare('provider_payment_id', provider?.providerPaymentId ?? null, row.provider_payment_id);
      compare('provider_status', provider?.providerStatus ?? null, row.provider_status);
      compare('amount_asked_minor', provider?.amountAskedMinor ?? null, row.amount_asked_minor);
      compare('amount_received_minor', provider?.amountReceivedMinor ?? null, row.amount_received_minor);
      compare('discount_percent', expected.discountPercent, row.discount_percent);
    }
    if (rows.length < VERIFY_READ_BATCH_ROWS) break;
    after = String(rows[rows.length - 1].payment_id);
  }
  for (const key of Object.keys(replay.payments)) {
    if (!seen.has(Number(key))) {
      differences.add({
        source: 'payments',
        subject: `payment ${key}`,
        message: 'payment has no row',
        expected: 'row',
        actual: 'no row',
      });
    }
  }
  return seen.size;
}

async function compareEntries(reader: SqlReader, replay: LedgerReplay, differences: DifferenceSink): Promise<number> {
  const expectedByKey = new Map(
    replay.entries.map((entry) => [`${entry.transactionId}/${entry.postingIndex}/${entry.account}`, entry]),
  );
  let rowsRead = 0;
  let after = '0';
  for (;;) {
    const rows: Array<Record<string, string | null>> = await reader.query(
      `SELECT entry_id::text, transaction_id::text, posting_index::text, account, counter_account, amount_minor::text,
              balance_after_minor::text, payment_id::text, event_type, ${isoInstantSql('occurred_at')},
              global_position::text
         FROM ledger_entries WHERE entry_id > $1::bigint ORDER BY ledger_entries.entry_id LIMIT $2`,
      [after, VERIFY_READ_BATCH_ROWS],
    );
    rowsRead += rows.length;
    for (const row of rows) {
      const key = `${row.transaction_id}/${row.posting_index}/${row.account}`;
      const subject = `entry ${row.entry_id} (transaction ${row.transaction_id}, posting ${row.posting_index}, ${row.account})`;
      const expected = expectedByKey.get(key);
      if (!expected) {
        differences.add({
          source: 'ledger_entries',
          subject,
          message: 'row has no posting in the events',
          expected: 'no row',
          actual: 'row',
        });
        continue;
      }
      expectedByKey.delete(key);
      const compare = (field: string, want: unknown, have: unknown): void =>
        differences.field('ledger_entries', subject, field, want, have);
      compare('counter_account', expected.counterAccount, row.counter_account);
      compare('amount_minor', expected.amountMinor, row.amount_minor);
      compare('balance_after_minor', expected.balanceAfterMinor, row.balance_after_minor);
      compare('payment_id', expected.paymentId, row.payment_id);
      compare('event_type', expected.eventType, row.event_type);
      if (expected.occurredAt !== null) compare('occurred_at', instant(expected.occurredAt), instant(row.occurred_at));
      if (expected.globalPosition !== null) compare('global_position', expected.globalPosition, row.global_position);
    }
    if (rows.length < VERIFY_READ_BATCH_ROWS) break;
    after = String(rows[rows.length - 1].entry_id);
  }
  for (const entry of expectedByKey.values()) {
    differences.add({
      source: 'ledger_entries',
      subject: `transaction ${entry.transactionId}, posting ${entry.postingIndex}, ${entry.account}`,
      message: 'posting has no row',
      expected: 'row',
      actual: 'no row',
    });
  }
  return rowsRead;
}

/** Every user account the replay knows and every row the table has; a missing row means a zero balance. */
export async function compareAccountBalances(
  reader: SqlReader,
  replay: LedgerReplay,
  differences: DifferenceSink,
): Promise<number> {
  const rows: Array<{ account: string; balance_minor: string }> = await reader.query(
    'SELECT account, balance_minor::text AS balance_minor FROM account_balances',
  );
  const actual = new Map(rows.map((row) => [row.account, row.balance_minor]));
  const accounts = new Set([
    ...rows.map((row) => row.account),
    ...Object.keys(replay.accountBalances).filter((account) => account.startsWith(USER_ACCOUNT_PREFIX)),
  ]);
  for (const account of accounts) {
    differences.field(
      'account_balances',
      `account ${account}`,
      'balance_minor',
      replay.accountBalances[account] ?? 0,
      actual.get(account) ?? 0,
    );
  }
  return accounts.size;
}

async function compareSnapshots(reader: SqlReader, replay: LedgerReplay, differences: DifferenceSink): Promise<number> {
  const rows: Array<{ stream_id: string; version: number; state: unknown }> = await reader.query(
    'SELECT stream_id, version, state FROM wallet_snapshots',
  );
  const actual = new Map(rows.map((row) => [row.stream_id, row]));
  const streams = new Set([...actual.keys(), ...Object.keys(replay.walletSnapshots)]);
  for (const streamId of streams) {
    const expected = replay.walletSnapshots[streamId];
    const row = actual.get(streamId);
    const subject = `snapshot ${streamId}`;
    if (!expected || !row) {
      differences.add({
        source: 'wallet_snapshots',
        subject,
        message: row ? 'snapshot of a stream without wallet events' : 'stream has no snapshot',
        expected: expected ? 'row' : 'no row',
        actual: row ? 'row' : 'no row',
      });
      continue;
    }
    differences.field('wallet_snapshots', subject, 'version', expected.version, row.version);
    // Canonical JSON, so that equal states compare equal whatever order jsonb keeps their keys in.
    differences.field('wallet_snapshots', subject, 'state', canonicalJson(expected.state), canonicalJson(row.state));
  }
  return rows.length;
}
