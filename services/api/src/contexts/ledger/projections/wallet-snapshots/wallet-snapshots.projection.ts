import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { RebuildMemory } from '../../../../platform/event-store/rebuild-memory';
import { assert } from '../../../../kernel';
import { WALLET_EVENT_TYPES, type WalletEvent } from '../../domain/ledger.events';
import { walletDecider } from '../../domain/wallet.decider';
import type { WalletState } from '../../domain/wallet.state';

export const WALLET_SNAPSHOTS_PROJECTION_NAME = 'wallet-snapshots';

export interface WalletSnapshot {
  version: number;
  state: WalletState;
}

/** The snapshots of wallet streams that have one, by stream id; read under the streams' locks by commands. */
export async function loadWalletSnapshots(
  manager: EntityManager,
  streamIds: readonly string[],
): Promise<Map<string, WalletSnapshot>> {
  return walletSnapshotsOf(await manager.query(walletSnapshotsSql('$1'), [streamIds]));
}

/** The snapshots of the wallets named by the text[] parameter `ids`; the locking statement runs it too. */
export function walletSnapshotsSql(ids: string): string {
  return `SELECT stream_id, version, state FROM wallet_snapshots WHERE stream_id = ANY(${ids}::text[])`;
}

/** Snapshots by stream id, from rows of `walletSnapshotsSql`. */
export function walletSnapshotsOf(rows: readonly Record<string, unknown>[]): Map<string, WalletSnapshot> {
  return new Map(
    rows.map((row) => [row.stream_id as string, { version: row.version as number, state: row.state as WalletState }]),
  );
}

/**
 * The wallets a command loaded under their locks, at their heads, by the transaction's entity manager: the projection
 * below evolves them instead of reading the snapshots a second time. A transaction retried after a deadlock runs on a
 * new entity manager, so nothing read before the retry is reused.
 */
const walletHeadsByTransaction = new WeakMap<EntityManager, Map<string, WalletSnapshot>>();

/** Remembers wallets a command read at their heads, for the append that follows in the same transaction. */
export function rememberWalletHeads(manager: EntityManager, heads: ReadonlyMap<string, WalletSnapshot>): void {
  const known = walletHeadsByTransaction.get(manager) ?? new Map<string, WalletSnapshot>();
  for (const [streamId, head] of heads) known.set(streamId, head);
  walletHeadsByTransaction.set(manager, known);
}

/**
 * The states the wallet `events` continue from, by stream: the wallets the command loaded in this transaction, when
 * each stream among the events was loaded exactly one version behind its first event here; otherwise null. Only those
 * streams are in the answer, a new map. The ledger entries take their starting balances from it too.
 */
export function walletHeadsBefore(
  manager: EntityManager,
  events: readonly RecordedEvent[],
): Map<string, WalletSnapshot> | null {
  const known = walletHeadsByTransaction.get(manager);
  if (!known) return null;
  const heads = new Map<string, WalletSnapshot>();
  for (const event of events) {
    if (heads.has(event.streamId)) continue;
    const head = known.get(event.streamId);
    if (head?.version !== event.streamVersion - 1) return null;
    heads.set(event.streamId, head);
  }
  return heads;
}

/** The snapshots the events continue from: the heads the command loaded when they fit, otherwise read. */
async function snapshotsBefore(
  manager: EntityManager,
  events: readonly RecordedEvent[],
  streamIds: readonly string[],
): Promise<Map<string, WalletSnapshot>> {
  return walletHeadsBefore(manager, events) ?? loadWalletSnapshots(manager, streamIds);
}

/**
 * After every append to a wallet stream, the folded state at the stream's new version, upserted in the same
 * transaction (ADR 0006). A command then reads the snapshot and only the events after it, so a wallet with a long
 * history decides as fast as a new one. One read and one write per append, however many events it carries.
 */
export class WalletSnapshotsProjection implements InlineProjection {
  readonly name = WALLET_SNAPSHOTS_PROJECTION_NAME;
  readonly handles = WALLET_EVENT_TYPES;
  readonly tables = ['wallet_snapshots'];
  /** Snapshots kept in memory while a rebuild runs (see `InlineProjection.beginRebuild`); null otherwise. */
  private readonly rebuilding = new RebuildMemory<Map<string, WalletSnapshot>>();

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const streamIds = [...new Set(events.map((event) => event.streamId))];
    const kept = this.rebuilding.of(manager);
    const snapshots = kept ?? (await snapshotsBefore(manager, events, streamIds));
    for (const recorded of events) {
      const snapshot = snapshots.get(recorded.streamId) ?? { version: 0, state: walletDecider.initialState() };
      assert(
        recorded.streamVersion === snapshot.version + 1,
        `wallet snapshot of ${recorded.streamId} at ${snapshot.version} cannot take version ${recorded.streamVersion}`,
      );
      const event = { type: recorded.type, data: recorded.data } as WalletEvent;
      snapshots.set(recorded.streamId, {
        version: recorded.streamVersion,
        state: walletDecider.evolve(snapshot.state, event),
      });
    }
    if (kept) return;
    await writeSnapshots(manager, streamIds, snapshots);
  }

  beginRebuild(manager: EntityManager): void {
    this.rebuilding.begin(manager, new Map());
  }

  /** Every wallet's final snapshot, written once (in chunks) at the end of a rebuild. */
  async endRebuild(manager: EntityManager, write: boolean): Promise<void> {
    const snapshots = this.rebuilding.end(manager) ?? new Map<string, WalletSnapshot>();
    if (!write) return;
    const streamIds = [...snapshots.keys()];
    for (let start = 0; start < streamIds.length; start += REBUILD_WRITE_CHUNK_ROWS) {
      await writeSnapshots(manager, streamIds.slice(start, start + REBUILD_WRITE_CHUNK_ROWS), snapshots);
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE wallet_snapshots');
  }
}

/** Rows per statement when a rebuild writes the snapshots it kept. */
const REBUILD_WRITE_CHUNK_ROWS = 5000;

async function writeSnapshots(
  manager: EntityManager,
  streamIds: string[],
  snapshots: Map<string, WalletSnapshot>,
): Promise<void> {
  const ordered = [...streamIds].sort();
  await manager.query(
    `INSERT INTO wallet_snapshots (stream_id, version, state)
       SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[])
       ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state`,
    [
      ordered,
      ordered.map((streamId) => snapshots.get(streamId)?.version),
      ordered.map((streamId) => JSON.stringify(snapshots.get(streamId)?.state)),
    ],
  );
}
