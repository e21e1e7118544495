import { paymentStreamId } from '@kupa/proto';
import { fold } from '../../../kernel';
import type { LoadedStream, StreamKind, StreamLoader } from '../../../platform/commands';
import type { EventStore, RecordedEvent } from '../../../platform/event-store/event-store.port';
import {
  DEPOSIT_PURCHASE_STREAM_PREFIX,
  depositPurchaseDecider,
  type DepositPurchaseEvent,
  type DepositPurchaseState,
  depositPurchaseStreamId,
  legacyDepositPurchaseEvents,
} from '../domain/deposit-purchase.decider';

type PurchaseState = DepositPurchaseState | null;

/**
 * A purchase's events: those appended to its deposit's payment stream before purchases had streams of their own
 * (ADR 0068), then its own stream's. Nothing appends purchase events to a payment stream any more, so the legacy part
 * is read without that stream's lock; the command's lock on `purchase-{paymentId}` orders the rest.
 */
function foldPurchase(legacy: readonly RecordedEvent[], own: readonly RecordedEvent[]): PurchaseState {
  const events = [...legacyDepositPurchaseEvents(legacy), ...own.map(({ type, data }) => ({ type, data }))];
  return fold(depositPurchaseDecider, events as DepositPurchaseEvent[]);
}

function paymentIdOf(streamId: string): number {
  return Number(streamId.slice(DEPOSIT_PURCHASE_STREAM_PREFIX.length));
}

const loader: StreamLoader<PurchaseState> = {
  async load(tx, streamIds) {
    const loaded = new Map<string, LoadedStream<PurchaseState>>();
    for (const streamId of streamIds) {
      const legacy = await tx.readStream(paymentStreamId(paymentIdOf(streamId)));
      const head = await tx.streamVersion(streamId);
      const own = head === 0 ? [] : await tx.readStream(streamId);
      loaded.set(streamId, { streamId, state: foldPurchase(legacy, own), version: head });
    }
    return loaded;
  },
};

/** Deposit purchase streams (`purchase-{paymentId}`), keyed by the deposit's payment id. */
export const depositPurchaseStreams: StreamKind<PurchaseState, DepositPurchaseEvent> & {
  currentState(store: EventStore, paymentId: number): Promise<PurchaseState>;
} = {
  ref: (paymentId) => ({ streamId: depositPurchaseStreamId(Number(paymentId)), loader }),
  currentState: async (store, paymentId) =>
    foldPurchase(
      await store.readStream(paymentStreamId(paymentId)),
      await store.readStream(depositPurchaseStreamId(paymentId)),
    ),
};
