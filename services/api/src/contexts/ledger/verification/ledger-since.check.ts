import { canonicalJson } from '@kupa/proto';
import type { SqlReader } from '../../../platform/database/read-only-snapshot';
import type { ReplayedEventRow } from '../../../platform/event-store/event-rows';
import { EventTypeRegistry } from '../../../platform/event-store/event-type-registry';
import { type LedgerProblem, type LedgerReplayStart, startLedgerReplay } from '../domain/replay-ledger';
import { registerLedgerEventTypes } from '../ledger-event-types';
import type { DifferenceSink } from './differences';
import { compareAccountBalances, replayRow } from './ledger-read-models.check';

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
  /** Every account's balance after the window: the checkpoint's, moved by the window's transactions. */
  accountBalances: Record<string, number>;
  ledgerEvents: number;
  transactions: number;
  userAccounts: number;
  walletSnapshots: number;
}

/** The ledger's part of `kupa ledger verify --since-checkpoint`, fed the events after a checkpoint in commit order. */
export interface LedgerIncrement {
  apply(row: ReplayedEventRow): void;
  /** Ends the replay and compares what the window can judge with the read models in `reader`'s snapshot. */
  finish(reader: SqlReader, differences: DifferenceSink): Promise<LedgerIncrementResult>;
}

/**
 * Continues the ledger's replay from a verified checkpoint's balances and stream versions (ADR 0111): each new
 * transaction must be valid, balance and be booked once within the window, transfers must match, no wallet may go
 * negative unconfirmed, and the ledger must still sum to zero; then every user account's balance must equal
 * `account_balances` (a table of one row per account, so this reads accounts, not history) and every wallet the
 * window touched its snapshot row. Payments and entries are left to the full verify.
 */
export function startLedgerIncrement(start: LedgerReplayStart): LedgerIncrement {
  const eventTypes = new EventTypeRegistry();
  registerLedgerEventTypes(eventTypes);
  const replayer = startLedgerReplay(start);
  return {
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
      const userAccounts = await compareAccountBalances(reader, replay, differences);
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
