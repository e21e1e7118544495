import { Injectable } from '@nestjs/common';
import type { EventMetadata, Payment } from '@kupa/proto';
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
 */
@Injectable()
export class LedgerTransactions {
  constructor(
    private readonly store: EventStore,
    private readonly keys: IdempotencyKeys,
  ) {}

  async run(
    streamIds: string[],
    metadata: EventMetadata,
    idempotency: IdempotentRequest | null,
    decide: (tx: StreamTransaction) => Promise<LedgerDecision>,
  ): Promise<Payment> {
    try {
      return await withVersionRetry(async () => {
        const { result } = await this.store.transact(streamIds, metadata, async (tx) => {
          await this.keys.claim(tx.manager, idempotency, new Date(metadata.occurredAt));
          const { appends, response } = await decide(tx);
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
