import type { EntityManager } from 'typeorm';
import { assert, fold } from '../../../platform/decider/decider';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { type PaymentEvent, paymentStreamId, type WalletEvent, walletStreamId } from '../domain/ledger.events';
import { paymentDecider } from '../domain/payment.decider';
import type { PaymentState } from '../domain/payment.state';
import { walletDecider } from '../domain/wallet.decider';
import type { WalletState } from '../domain/wallet.state';
import { loadWalletSnapshots } from '../projections/wallet-snapshots/wallet-snapshots.projection';

export interface LoadedWallet {
  streamId: string;
  state: WalletState;
  version: number;
  /** Events read beyond the snapshot: what makes a long wallet cost as much as a new one (ADR 0006). */
  eventsRead: number;
}

/**
 * Wallets' states under their stream locks: each snapshot, then only the events after its version. Snapshots are
 * written with every append, so they are normally at the locked heads and no event needs reading at all; the
 * snapshots of all the wallets come in one read.
 */
export async function loadWallets(tx: StreamTransaction, userUuids: readonly string[]): Promise<LoadedWallet[]> {
  const streamIds = userUuids.map(walletStreamId);
  const snapshots = await loadWalletSnapshots(tx.manager, streamIds);
  const wallets: LoadedWallet[] = [];
  for (const streamId of streamIds) {
    const head = await tx.streamVersion(streamId);
    const snapshot = snapshots.get(streamId);
    const snapshotVersion = snapshot?.version ?? 0;
    const events = snapshotVersion === head ? [] : await tx.readStream(streamId, { fromVersion: snapshotVersion + 1 });
    let state = snapshot?.state ?? walletDecider.initialState();
    for (const recorded of events)
      state = walletDecider.evolve(state, { type: recorded.type, data: recorded.data } as WalletEvent);
    const version = events.length > 0 ? events[events.length - 1].streamVersion : snapshotVersion;
    assert(version === head, `wallet ${streamId} must be read up to its current version`);
    wallets.push({ streamId, state, version, eventsRead: events.length });
  }
  return wallets;
}

export async function loadWallet(tx: StreamTransaction, userUuid: string): Promise<LoadedWallet> {
  const [wallet] = await loadWallets(tx, [userUuid]);
  return wallet;
}

export interface LoadedPayment {
  streamId: string;
  state: PaymentState | null;
  version: number;
}

/** A payment's lifecycle is a handful of events: it is folded whole (a new payment's stream is not read at all). */
export async function loadPayment(tx: StreamTransaction, paymentId: number): Promise<LoadedPayment> {
  const streamId = paymentStreamId(paymentId);
  const events = (await tx.streamVersion(streamId)) === 0 ? [] : await tx.readStream(streamId);
  const state = fold(
    paymentDecider,
    events.map((recorded) => ({ type: recorded.type, data: recorded.data }) as PaymentEvent),
  );
  return { streamId, state, version: events.length > 0 ? events[events.length - 1].streamVersion : 0 };
}

/**
 * Takes the next payment id. Called before the command's transaction because the stream it names must be locked up
 * front; a sequence value is never rolled back anyway, so ids of failed commands are gaps, which are harmless.
 */
export async function nextPaymentIds(manager: EntityManager, count: number): Promise<number[]> {
  const rows: Array<{ id: string }> = await manager.query(
    'SELECT nextval($1::regclass)::text AS id FROM generate_series(1, $2)',
    ['payment_id_seq', count],
  );
  return rows.map((row) => Number(row.id));
}
