import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { BulkAction } from '@kupa/proto';
import { DomainError } from '../../../kernel';
import type { Actor, RequestContext } from '../../../platform/auth';
import { ApiError } from '../../../platform/http';
import { ChangeUserStatusCommand } from '../../identity';
import { CreditGoodwillCommand } from '../../ledger';
import { SubscriptionExtensions } from '../../subscriptions';

/** What a running batch knows of itself to act on a target. */
export interface RunnableBatch {
  id: string;
  action: BulkAction;
  reason: string;
  publicNote: string | null;
  amountMinor: number | null;
  days: number | null;
  actor: Actor;
}

export type TargetActionOutcome = { outcome: 'DONE'; resultRef: string | null } | { outcome: 'FAILED'; error: string };

/** The key of a batch's action on one target: the same on every run of the batch, so the action happens once. */
export function bulkTargetKey(batchId: string, targetId: string): string {
  return `bulk:${batchId}:${targetId}`;
}

/** What the client reads on their subscription's history: the public note, or the reason when there is none. */
export function bulkExtensionReason(batch: Pick<RunnableBatch, 'reason' | 'publicNote'>): string {
  return batch.publicNote ?? batch.reason;
}

/**
 * One batch action on one target, through the door of the context that owns the target: identity's status change
 * (a second block of a blocked client changes nothing), the ledger's goodwill credit (keyed by batch and client),
 * the subscriptions' extension (keyed by batch and subscription).
 * Each is safe to run again for the same target, which is what lets a batch resume after a crash. A refusal with a
 * catalogue code settles the target as failed; anything else (the database gone) is thrown, and the batch retried.
 */
@Injectable()
export class BulkTargetActions {
  constructor(
    private readonly commands: CommandBus,
    private readonly extensions: SubscriptionExtensions,
  ) {}

  async perform(batch: RunnableBatch, targetId: string): Promise<TargetActionOutcome> {
    // The batch's id correlates every event its targets cause with the batch, in the activity log and in Kafka.
    const context: RequestContext = { actor: batch.actor, ip: null, correlationId: batch.id };
    try {
      switch (batch.action) {
        case 'BLOCK':
        case 'UNBLOCK':
          await this.commands.execute(
            new ChangeUserStatusCommand(
              batch.actor,
              targetId,
              batch.action === 'BLOCK' ? 'BLOCKED' : 'ACTIVE',
              context,
            ),
          );
          return { outcome: 'DONE', resultRef: null };
        case 'GOODWILL_CREDIT': {
          const payment = await this.commands.execute(
            new CreditGoodwillCommand(
              batch.actor,
              batch.id,
              targetId,
              batch.amountMinor ?? 0,
              batch.reason,
              batch.publicNote,
              context,
            ),
          );
          return { outcome: 'DONE', resultRef: String(payment.paymentId) };
        }
        case 'ADD_DAYS':
          // The key makes a resumed batch's repeat add nothing: the subscription remembers the keys it applied.
          await this.extensions.extend(
            {
              subscriptionId: targetId,
              days: batch.days ?? 0,
              reason: bulkExtensionReason(batch),
              source: 'BULK',
              actorId: batch.actor.userUuid,
              batchId: batch.id,
              idempotencyKey: bulkTargetKey(batch.id, targetId),
            },
            context,
          );
          return { outcome: 'DONE', resultRef: null };
      }
    } catch (error) {
      if (error instanceof DomainError || error instanceof ApiError) return { outcome: 'FAILED', error: error.code };
      throw error;
    }
  }
}
