import type { EntityManager } from 'typeorm';
import { assert } from '../../../kernel';
import {
  foldedStreamKind,
  type LoadedStream,
  type StreamKind,
  type StreamLoader,
  type StreamRef,
} from '../../../platform/commands';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { type PaymentEvent, paymentStreamId, type WalletEvent, walletStreamId } from '../domain/ledger.events';
import { paymentDecider } from '../domain/payment.decider';
import type { PaymentState } from '../domain/payment.state';
import { voucherBatchEvolution } from '../domain/voucher-batch.decider';
import { walletDecider } from '../domain/wallet.decider';
import { depositClaimsStreamId, voucherBatchStreamId } from '@kupa/proto';
import { depositClaimsEvolution } from '../domain/deposit-claims.decider';
import type { WalletState } from '../domain/wallet.state';
import {
  loadWalletSnapshots,
  rememberWalletHeads,
  walletSnapshotsOf,
  walletSnapshotsSql,
} from '../projections/wallet-snapshots/wallet-snapshots.projection';

export interface LoadedWallet extends LoadedStream<WalletState> {
  /** Events read beyond the snapshot: what makes a long wallet cost as much as a new one (ADR 0006). */
  eventsRead: number;
}

/**
 * Wallets' states under their stream locks: each snapshot, then only the events after its version. Snapshots are
 * written with every append, so they are normally at the locked heads and no event needs reading at all; the
 * snapshots of all the wallets a command names are read in the statement that locks the streams (docs/adr/0129). A
 * snapshot that statement read before it waited for a wallet's lock is behind the head, and its events after it are
 * read as for any older snapshot.
 */
const walletLoader: StreamLoader<WalletState> = {
  readWithLocks: walletSnapshotsSql,
  async load(tx, streamIds, rowsReadWithLocks) {
    const snapshots =
      rowsReadWithLocks === undefined
        ? await loadWalletSnapshots(tx.manager, streamIds)
        : walletSnapshotsOf(rowsReadWithLocks);
    const wallets = new Map<string, LoadedWallet>();
    for (const streamId of streamIds) {
      const head = await tx.streamVersion(streamId);
      const snapshot = snapshots.get(streamId);
      const snapshotVersion = snapshot?.version ?? 0;
      const events =
        snapshotVersion === head ? [] : await tx.readStream(streamId, { fromVersion: snapshotVersion + 1 });
      let state = snapshot?.state ?? walletDecider.initialState();
      for (const recorded of events)
        state = walletDecider.evolve(state, { type: recorded.type, data: recorded.data } as WalletEvent);
      const version = events.length > 0 ? events[events.length - 1].streamVersion : snapshotVersion;
      assert(version === head, `wallet ${streamId} must be read up to its current version`);
      wallets.set(streamId, { streamId, state, version, eventsRead: events.length });
    }
    rememberWalletHeads(tx.manager, wallets);
    return wallets;
  },
};

/** Wallet streams (`wallet-{userUuid}`), loaded from their snapshots. */
export const walletStreams: StreamKind<WalletState, WalletEvent> = {
  ref: (userUuid) => ({ streamId: walletStreamId(String(userUuid)), loader: walletLoader }),
};

/** Payment streams (`payment-{id}`): a handful of events each, folded whole; a new payment's stream is not read. */
export const paymentStreams = foldedStreamKind(paymentDecider, (paymentId) => paymentStreamId(Number(paymentId)));

/** Voucher batch streams (`voucher-batch-{uuid}`): generation, funding and at most a thousand redemptions, folded whole. */
export const voucherBatchStreams = foldedStreamKind(voucherBatchEvolution, (batchId) =>
  voucherBatchStreamId(String(batchId)),
);

/** A client's manual-transfer claims (`deposit-claims-{userUuid}`, ADR 0112): a few events each, folded whole. */
export const depositClaimStreams = foldedStreamKind(depositClaimsEvolution, (userUuid) =>
  depositClaimsStreamId(String(userUuid)),
);

/** One wallet under its lock, with how many events its load read: for the snapshot spec. */
export async function loadWallet(tx: StreamTransaction, userUuid: string): Promise<LoadedWallet> {
  const streamId = walletStreamId(userUuid);
  const wallet = (await walletLoader.load(tx, [streamId])).get(streamId);
  assert(wallet, `wallet ${streamId} loads`);
  return wallet as LoadedWallet;
}

/**
 * Takes the next payment ids. Called before the command's transaction because the streams they name must be locked
 * up front; a sequence value is never rolled back anyway, so ids of failed commands are gaps, which are harmless.
 */
export async function nextPaymentIds(manager: EntityManager, count: number): Promise<number[]> {
  const rows: Array<{ id: string }> = await manager.query(
    'SELECT nextval($1::regclass)::text AS id FROM generate_series(1, $2)',
    ['payment_id_seq', count],
  );
  return rows.map((row) => Number(row.id));
}

/** A payment's stream as a command names it to append to. */
export type PaymentStreamRef = StreamRef<PaymentState | null, PaymentEvent>;
/** A wallet's stream as a command names it to append to. */
export type WalletStreamRef = StreamRef<WalletState, WalletEvent>;
/** A payment's stream under the command's lock. */
export type LoadedPaymentStream = LoadedStream<PaymentState | null>;
/** A wallet's stream under the command's lock. */
export type LoadedWalletStream = LoadedStream<WalletState>;

/**
 * The ledger's streams as another context names them beside its own in one `CommandPipeline` run (ADR 0006), so
 * that money and what it pays for are one append; the ledger's pure deciders (`domain/`) decide their events.
 */
export const ledgerStreams = {
  payment: (paymentId: number): PaymentStreamRef => paymentStreams.ref(paymentId),
  /** The payment's stream named to be read only: its state under its lock, appending nothing. */
  paymentForReading: (paymentId: number): StreamRef<PaymentState | null, never> =>
    paymentStreams.lockedForReading(paymentId),
  wallet: (userUuid: string): WalletStreamRef => walletStreams.ref(userUuid),
  /** A new payment's id, taken before the command's transaction because its stream is locked up front. */
  nextPaymentId: async (manager: EntityManager): Promise<number> => (await nextPaymentIds(manager, 1))[0],
  /** `count` new payment ids in one round trip, for a command that opens several payments at once. */
  nextPaymentIds,
};
