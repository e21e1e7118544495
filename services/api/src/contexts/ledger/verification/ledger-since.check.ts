import { canonicalJson } from '@kupa/proto';
import type { SqlReader } from '../../../platform/database/read-only-snapshot';
import type { ReplayedEventRow } from '../../../platform/event-store/event-rows';
import { EventTypeRegistry } from '../../../platform/event-store/event-type-registry';
import { USER_ACCOUNT_PREFIX } from '@kupa/proto';
import {
  accountsReplayReads,
  isReplayedEvent,
  type LedgerProblem,
  type LedgerReplayStart,
  startLedgerReplay,
} from '../domain/replay-ledger';
import { registerLedgerEventTypes } from '../ledger-event-types';
import type { DifferenceSink } from './differences';
import { upcastRow } from '../../../platform/event-store/event-rows';
import { replayRow } from './ledger-read-models.check';

/**
 * The replay's checks that need events from before the checkpoint to judge: a payment changed after it was recorded
 * before, a voucher batch generated or funded before, the liability against every batch's debt. A window of events
 * cannot tell them from a fault, so the since-checkpoint verify leaves them to the full one (ADR 0111).
 */
const NEEDS_WHOLE_HISTORY: ReadonlySet<LedgerProblem['kind']> = new Set([
  'payment.unknown',
  'voucher.invalid',
  'voucher.unmatched',
  'voucher.liability.mismatch',
]);

export interface LedgerIncrementResult {
  /** The balance after the window of each account the window moved or read (zero ones included). */
  accountBalances: Record<string, number>;
  ledgerEvents: number;
  transactions: number;
  userAccounts: number;
  walletSnapshots: number;
}

/** The ledger's part of `kupa ledger verify --since-checkpoint`, fed the events after a checkpoint in commit order. */
export interface LedgerIncrement {
  /** The accounts `apply(row)` will ask the start's balance of (ADR 0122), for a caller to load them first. */
  accountsOf(row: ReplayedEventRow): string[];
  apply(row: ReplayedEventRow): void;
  /** Ends the replay and compares what the window can judge with the read models in `reader`'s snapshot. */
  finish(reader: SqlReader, differences: DifferenceSink): Promise<LedgerIncrementResult>;
}

/**
 * Continues the ledger's replay from a verified checkpoint's balances and stream versions (ADR 0111): each new
 * transaction must be valid, balance and be booked once within the window, transfers must match, no wallet may go
 * negative unconfirmed, and the ledger must still sum to zero; then the balance of every user account the window
 * moved must equal its `account_balances` row, and every wallet the window touched its snapshot row. Accounts the
 * window did not move, payments and entries are left to the full verify (ADR 0122).
 */
export function startLedgerIncrement(start: LedgerReplayStart): LedgerIncrement {
  const eventTypes = new EventTypeRegistry();
  registerLedgerEventTypes(eventTypes);
  const replayer = startLedgerReplay(start);
  return {
    accountsOf(row) {
      if (!isReplayedEvent({ streamId: row.stream_id, type: row.type })) return [];
      return accountsReplayReads({ streamId: row.stream_id, type: row.type, data: upcastRow(row, eventTypes).data });
    },
    apply(row) {
      replayRow(replayer, row, eventTypes);
    },
    async finish(reader, differences) {
      const replay = replayer.finish();
      for (const problem of replay.problems) {
        if (NEEDS_WHOLE_HISTORY.has(problem.kind)) continue;
        const subject = problem.streamId ? `stream ${problem.streamId} v${problem.streamVersion}` : 'ledger';
        differences.add({ source: 'replay', subject, message: `${problem.kind}: ${problem.message}` });
      }
      const userAccounts = await compareMovedAccountBalances(reader, replay.accountBalances, differences);
      const touched = Object.keys(replay.walletSnapshots);
      const snapshots: Array<{ stream_id: string; version: number; state: unknown }> = await reader.query(
        'SELECT stream_id, version, state FROM wallet_snapshots WHERE stream_id = ANY($1::text[])',
        [touched],
      );
      const rows = new Map(snapshots.map((row) => [row.stream_id, row]));
      for (const streamId of touched) {
        const expected = replay.walletSnapshots[streamId];
        const row = rows.get(streamId);
        const subject = `snapshot ${streamId}`;
        if (!row) {
          differences.add({ source: 'wallet_snapshots', subject, message: 'stream has no snapshot' });
          continue;
        }
        differences.field('wallet_snapshots', subject, 'version', expected.version, row.version);
        differences.field(
          'wallet_snapshots',
          subject,
          'state',
          canonicalJson(expected.state),
          canonicalJson(row.state),
        );
      }
      return {
        accountBalances: replay.accountBalances,
        ledgerEvents: replay.eventCount,
        transactions: replay.transactionCount,
        userAccounts,
        walletSnapshots: touched.length,
      };
    },
  };
}

/**
 * The window's accounts against `account_balances`: each user account it moved, and any row held for another account
 * it moved, read by key. The rows of the accounts it did not move are the full verify's to compare (ADR 0122).
 */
async function compareMovedAccountBalances(
  reader: SqlReader,
  balances: Readonly<Record<string, number>>,
  differences: DifferenceSink,
): Promise<number> {
  const moved = Object.keys(balances);
  const rows: Array<{ account: string; balance_minor: string }> = await reader.query(
    'SELECT account, balance_minor::text AS balance_minor FROM account_balances WHERE account = ANY($1::text[])',
    [moved],
  );
  const actual = new Map(rows.map((row) => [row.account, row.balance_minor]));
  const accounts = moved.filter((account) => account.startsWith(USER_ACCOUNT_PREFIX) || actual.has(account));
  for (const account of accounts)
    differences.field(
      'account_balances',
      `account ${account}`,
      'balance_minor',
      balances[account],
      actual.get(account) ?? 0,
    );
  return accounts.length;
}
