import { Injectable } from '@nestjs/common';
import type { SubscriptionExtensionSource } from '@kupa/proto';
import type { RequestContext } from '../../../platform/auth';
import { CommandPipeline } from '../../../platform/commands';
import { extendSubscription } from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import type { SubscriptionState } from '../domain/subscription.state';
import { subscriptionStreams } from '../infrastructure/subscription-streams';

/** What adding days to one subscription takes (ADR 0089). */
export interface SubscriptionExtensionRequest {
  subscriptionId: string;
  days: number;
  /** Shown to the client; a day voucher's batch label. */
  reason: string;
  source: SubscriptionExtensionSource;
  /** The staff member, or the client redeeming a day voucher. */
  actorId: string;
  /** The bulk operation (BULK only). */
  batchId?: string | null;
  /** The day voucher batch (VOUCHER only). */
  voucherBatchId?: string | null;
  /** The same key twice adds the days once: a bulk batch names each target's key, a resumed batch reuses it. */
  idempotencyKey: string;
}

export interface SubscriptionExtensionOutcome {
  /** False when the key was applied before: nothing was added this time. */
  extended: boolean;
}

/** The subscription's stream, for a flow of another context that extends it inside its own command. */
export function subscriptionExtensionStream(subscriptionId: string) {
  return subscriptionStreams.ref(subscriptionId);
}

/**
 * The decision of an extension on a loaded subscription stream, for a flow of another context that appends it in
 * the same command as its own events (a day voucher's redemption locks its batch and the subscription together).
 */
export function decideSubscriptionExtension(
  request: SubscriptionExtensionRequest,
  state: SubscriptionState,
  at: Date,
): SubscriptionEvent[] {
  return extendSubscription(
    {
      days: request.days,
      reason: request.reason,
      source: request.source,
      actorId: request.actorId,
      batchId: request.batchId ?? null,
      voucherBatchId: request.voucherBatchId ?? null,
      idempotencyKey: request.idempotencyKey,
      at,
    },
    state,
  );
}

/**
 * Adds days to one subscription (ADR 0089): the staff route, and other contexts through the subscriptions door (the
 * bulk operation). The new end date reaches the streaming service the way a renewal's does (the provisioning
 * processor turns `SubscriptionExtended` into EXTEND_ACCOUNT).
 */
@Injectable()
export class SubscriptionExtensions {
  constructor(private readonly pipeline: CommandPipeline) {}

  async extend(request: SubscriptionExtensionRequest, context: RequestContext): Promise<SubscriptionExtensionOutcome> {
    const { result } = await this.pipeline.run({
      context,
      causationId: null,
      streams: { subscription: subscriptionExtensionStream(request.subscriptionId) },
      decide: ({ subscription }, { at }) => {
        const events = decideSubscriptionExtension(request, subscription.state, at);
        return { events: { subscription: events }, result: { extended: events.length > 0 } };
      },
    });
    return result;
  }
}
