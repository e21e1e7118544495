import { Injectable } from '@nestjs/common';
import type { Payment } from '@kupa/proto';
import { eventMetadata, type RequestContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { EventStore, type StreamAppend, type StreamTransaction } from '../../../platform/event-store/event-store.port';
import { IdempotencyKeys, type IdempotentRequest, IdempotentReplay } from './idempotency-keys';
import { withVersionRetry } from './version-retry';

export interface LedgerDecision {
  appends: StreamAppend[];
  response: Payment;
}

/**
 * One ledger command = one `EventStore.transact` naming every stream it touches up front (locked in sorted order,
 * so crossing transfers wait instead of deadlocking), with the idempotency key claimed first and its answer stored
 * in the same transaction as the events. Callers check `IdempotencyKeys.replayIfKnown` before their own lookups, so
 * that a sequential repeat answers the first response even when the world has changed since.
 *
 * The instant of the operation is read once the streams are locked, so that the postings of one wallet carry
 * instants in the order they were booked and a balance "as of" an instant is the running balance booked last.
 */
@Injectable()
export class LedgerTransactions {
  constructor(
    private readonly store: EventStore,
    private readonly keys: IdempotencyKeys,
    private readonly clock: Clock,
  ) {}

  async run(
    streamIds: string[],
    context: RequestContext,
    idempotency: IdempotentRequest | null,
    decide: (tx: StreamTransaction, occurredAt: Date) => Promise<LedgerDecision>,
  ): Promise<Payment> {
    try {
      return await withVersionRetry(async () => {
        const metadataUnderLock = () => eventMetadata(context, this.clock.now());
        const { result } = await this.store.transact(streamIds, metadataUnderLock, async (tx) => {
          const occurredAt = new Date(tx.metadata.occurredAt);
          await this.keys.claim(tx.manager, idempotency, occurredAt);
          const { appends, response } = await decide(tx, occurredAt);
          await this.keys.complete(tx.manager, idempotency, response);
          return { appends: appends.filter((append) => append.events.length > 0), result: response };
        });
        return result;
      });
    } catch (error) {
      if (error instanceof IdempotentReplay) return error.response;
      throw error;
    }
  }
}
