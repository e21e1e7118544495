import { canonicalJson, LEDGER_EVENT_TYPES, SYSTEM_ACTOR_NAME, USER_ACCOUNT_PREFIX } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from '../../../platform/event-store/event-rows';
import type { EventTypeRegistry } from '../../../platform/event-store/event-type-registry';
import { PAYMENT_STREAM_PREFIX, WALLET_STREAM_PREFIX } from '../domain/ledger.events';
import { type LedgerReplay, startLedgerReplay } from '../domain/replay-ledger';
import { depositPurchaseOf } from '../projections/payments/payment-reader';

/** Rows read per round trip from the event store and from each read model; bounds each query's memory. */
export const VERIFY_READ_BATCH_ROWS = 5000;

const LEDGER_TYPES: ReadonlySet<string> = new Set(Object.values(LEDGER_EVENT_TYPES));

/** Where a difference was found: the replay's own checks, the hash chain, or one read model. */
export type DifferenceSource =
  'replay' | 'hash-chain' | 'payments' | 'ledger_entries' | 'account_balances' | 'wallet_snapshots' | 'read-model';

export interface LedgerDifference {
  source: DifferenceSource;
  /** What the difference is about: `payment 42`, `stream wallet-… v3`, `account user:…`. */
  subject: string;
  message: string;
  expected?: string;
  actual?: string;
}

/** Where the ledger's check reports what it finds; the store verifier keeps the first ones and counts them all. */
export interface DifferenceSink {
  add(difference: LedgerDifference): void;
  field(source: DifferenceSource, subject: string, field: string, expected: unknown, actual: unknown): void;
}

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

function instant(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  return new Date(value).toISOString();
}

/**
 * The ledger's part of `kupa ledger verify` (docs/ARCHITECTURE.md, Operations): replays every ledger event through
 * the pure `replayLedger` (balances, zero-sum transactions, overdrafts, transfers, payments, wallet states) and
 * compares each of the ledger's read models row by row with what the replay says it must hold. It reads through the
 * caller's manager, so the whole verification sees one snapshot.
 *
 * Events are read in `global_position` order, which within a stream follows versions (events of one stream are
 * inserted under its row lock). The store's gap-safe `readAll` is not used here: it holds back events of
 * transactions newer than the oldest one still running, which a snapshot already shows in the read models.
 */
export async function checkLedgerReadModels(
  manager: EntityManager,
  eventTypes: EventTypeRegistry,
  differences: DifferenceSink,
): Promise<LedgerCheckCounts> {
  const { replay, eventCount, replayMs } = await replayLedgerEvents(manager, eventTypes);
  for (const problem of replay.problems) {
    const subject = problem.streamId ? `stream ${problem.streamId} v${problem.streamVersion}` : 'ledger';
    differences.add({ source: 'replay', subject, message: `${problem.kind}: ${problem.message}` });
  }
  return {
    events: eventCount,
    ledgerEvents: replay.eventCount,
    transactions: replay.transactionCount,
    payments: await comparePayments(manager, replay, differences),
    ledgerEntries: await compareEntries(manager, replay, differences),
    userAccounts: await compareAccountBalances(manager, replay, differences),
    walletSnapshots: await compareSnapshots(manager, replay, differences),
    replayMs,
  };
}

/**
 * Every event in store order, the ledger's replayed as each batch arrives: the replay keeps its state but no batch
 * outlives its round trip, so memory follows the number of payments and postings, not the length of the history.
 * `replayMs` is the time spent decoding and replaying the ledger's events, without the round trips.
 */
async function replayLedgerEvents(
  manager: EntityManager,
  eventTypes: EventTypeRegistry,
): Promise<{ replay: LedgerReplay; eventCount: number; replayMs: number }> {
  const replayer = startLedgerReplay();
  let replayMs = 0;
  let eventCount = 0;
  let after = '0';
  for (;;) {
    // Every keyset read below orders by the table's column, not the bare name: the select lists rename a column's
    // text form to that name, and ORDER BY prefers an output name, which would sort numbers as text.
    const rows: EventRow[] = await manager.query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE global_position > $1::bigint ORDER BY events.global_position LIMIT $2`,
      [after, VERIFY_READ_BATCH_ROWS],
    );
    eventCount += rows.length;
    const batchStarted = performance.now();
    for (const row of rows) {
      const isLedgerStream =
        row.stream_id.startsWith(WALLET_STREAM_PREFIX) || row.stream_id.startsWith(PAYMENT_STREAM_PREFIX);
      if (!isLedgerStream || !LEDGER_TYPES.has(row.type)) continue;
      const recorded = toRecordedEvent(row, eventTypes);
      replayer.apply({
        streamId: recorded.streamId,
        streamVersion: recorded.streamVersion,
        type: recorded.type,
        data: recorded.data,
        metadata: { occurredAt: recorded.metadata.occurredAt, actor: recorded.metadata.actor },
        globalPosition: recorded.globalPosition,
      });
    }
    replayMs += performance.now() - batchStarted;
    if (rows.length < VERIFY_READ_BATCH_ROWS) break;
    after = rows[rows.length - 1].global_position;
  }
  const finishStarted = performance.now();
  const replay = replayer.finish();
  replayMs += performance.now() - finishStarted;
  return { replay, eventCount, replayMs };
}

async function comparePayments(
  manager: EntityManager,
  replay: LedgerReplay,
  differences: DifferenceSink,
): Promise<number> {
  const seen = new Set<number>();
  let after = '0';
  for (;;) {
    const rows: Array<Record<string, string | boolean | Date | null>> = await manager.query(
      `SELECT payment_id::text, user_uuid::text, user_email, amount_minor::text, currency, status, method, type, aggregator,
              comment, counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id::text,
              created_at, created_by, updated_at, updated_by, public_note, created_by_public, updated_by_public,
              bonus_payment_id::text, bonus_for_payment_id::text,
              cashier_provider, cashier_invoice_id, cashier_invoice_url, cashier_pay_currency, provider_payment_id,
              provider_status, amount_asked_minor::text, amount_received_minor::text, discount_percent,
              purchase_kind, purchase_plan_id::text, purchase_plan_name, purchase_subscription_id::text, purchase_status,
              purchase_error_code, card_provider, card_checkout_session_id
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
      compare('created_at', instant(expected.createdAt), instant(row.created_at as Date));
      compare('updated_at', instant(expected.updatedAt), instant(row.updated_at as Date));
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
      compare('provider_payment_id', provider?.providerPaymentId ?? null, row.provider_payment_id);
      compare('provider_status', provider?.providerStatus ?? null, row.provider_status);
      compare('amount_asked_minor', provider?.amountAskedMinor ?? null, row.amount_asked_minor);
      compare('amount_received_minor', provider?.amountReceivedMinor ?? null, row.amount_received_minor);
      compare('discount_percent', expected.discountPercent, row.discount_percent);
      const purchase = expected.purchase ? depositPurchaseOf(expected.purchase) : null;
      compare('purchase_kind', purchase?.kind ?? null, row.purchase_kind);
      compare('purchase_plan_id', purchase?.paymentPlanId ?? null, row.purchase_plan_id);
      compare('purchase_plan_name', purchase?.planName ?? null, row.purchase_plan_name);
      compare('purchase_subscription_id', purchase?.subscriptionId ?? null, row.purchase_subscription_id);
      compare('purchase_status', purchase?.status ?? null, row.purchase_status);
      compare('purchase_error_code', purchase?.errorCode ?? null, row.purchase_error_code);
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

async function compareEntries(
  manager: EntityManager,
  replay: LedgerReplay,
  differences: DifferenceSink,
): Promise<number> {
  const expectedByKey = new Map(
    replay.entries.map((entry) => [`${entry.transactionId}/${entry.postingIndex}/${entry.account}`, entry]),
  );
  let rowsRead = 0;
  let after = '0';
  for (;;) {
    const rows: Array<Record<string, string | Date | null>> = await manager.query(
      `SELECT entry_id::text, transaction_id::text, posting_index::text, account, counter_account, amount_minor::text,
              balance_after_minor::text, payment_id::text, event_type, occurred_at, global_position::text
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
      if (expected.occurredAt !== null)
        compare('occurred_at', instant(expected.occurredAt), instant(row.occurred_at as Date));
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
async function compareAccountBalances(
  manager: EntityManager,
  replay: LedgerReplay,
  differences: DifferenceSink,
): Promise<number> {
  const rows: Array<{ account: string; balance_minor: string }> = await manager.query(
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

async function compareSnapshots(
  manager: EntityManager,
  replay: LedgerReplay,
  differences: DifferenceSink,
): Promise<number> {
  const rows: Array<{ stream_id: string; version: number; state: unknown }> = await manager.query(
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
